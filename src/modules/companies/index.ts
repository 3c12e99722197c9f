// Companies: child companies (C1-C6) and every company's vocabulary (domains, user types, roles,
// redirect hosts, plan), which the operator API and the console settings edit.
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { companiesRoutes } from './companies.routes.js';
import { createCompaniesService } from './companies.service.js';
import { createCompanyStatutoryService } from './companies.statutory.service.js';
import { createRunApprovalService } from './company-run-approval.service.js';
import { createCompanyVocabularyService } from './company-vocabulary.service.js';

export function createCompaniesModule(deps: AppDeps) {
  const services = {
    companies: createCompaniesService(deps),
    vocabulary: createCompanyVocabularyService(deps),
    statutory: createCompanyStatutoryService(deps),
    runApproval: createRunApprovalService(deps),
  };
  return {
    services,
    routes: (app) => companiesRoutes(app, services.companies),
    jobs: [],
  } satisfies FeatureModule<typeof services>;
}

export type CompaniesServices = ReturnType<typeof createCompaniesModule>['services'];
/** A company's API token, issued in the caller's transaction (with setupCompany: the benchmark's companies). */
export { issueToken } from '../../platform/auth/tokens.js';
export {
  CompanyStatutoryBodyProperties,
  CompanyStatutoryProperties,
  type CompanyStatutoryValues,
  readCompanyStatutory,
  SECTORS,
  serializeCompanyStatutory,
  writeCompanyStatutory,
} from './companies.statutory.service.js';
export {
  isRunApproval,
  RUN_APPROVAL_MODES,
  type RunApproval,
  readRunApproval,
  writeRunApproval,
} from './company-run-approval.service.js';
export { type NewCompany, setupCompany } from './company-setup.service.js';
export {
  type CompanyProfile,
  type CompanyVocabularyService,
  createCompanyVocabularyService,
  isValidDomain,
  isValidRedirectHost,
  normalizeHost,
  normalizeHosts,
  normalizeNames,
  PLANS,
  type Plan,
} from './company-vocabulary.service.js';
