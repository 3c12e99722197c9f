// Payroll: paystubs (P1-P2), contribution settings (S1-S3), contributions (S4-S5) and custom
// contributions (S6-S10). The computation itself is the pure engine in src/tax-engine.
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { contributionsRoutes } from './contributions.routes.js';
import { customContributionsRoutes } from './custom-contributions.routes.js';
import { createCustomContributionsService } from './custom-contributions.service.js';
import type { ResolveItemTypes } from './paystubs.item-input.validation.js';
import { paystubsRoutes } from './paystubs.routes.js';
import { createPaystubsService, type RecordRun } from './paystubs.service.js';
import { settingsRoutes } from './settings.routes.js';
import { createSettingsService } from './settings.service.js';

export function createPaystubsModule(deps: AppDeps, needs: { recordRun: RecordRun; resolveItemTypes?: ResolveItemTypes }) {
  const services = {
    paystubs: createPaystubsService({ ...deps, ...needs }),
    settings: createSettingsService(deps),
    customContributions: createCustomContributionsService(deps),
  };
  return {
    services,
    routes: async (app) => {
      await settingsRoutes(app, services.settings);
      await customContributionsRoutes(app, services.customContributions);
      await paystubsRoutes(app, services.paystubs);
      // After the paystub routes: their schemas (by $id) are the contributions' too.
      await contributionsRoutes(app, services.paystubs);
    },
    jobs: [],
  } satisfies FeatureModule<typeof services>;
}

export type PayrollServices = ReturnType<typeof createPaystubsModule>['services'];

export { DEDUCTION_RATIO_MESSAGE, DEFAULT_DEDUCTION_RATIO, parseDeductionRatio, type Ratio } from './deduction-ratio.rules.js';
export { createPayslipLinks, PAYSLIP_LINK_DAYS, type PayslipLinks } from './payslip-links.service.js';
export {
  codesOf,
  type ItemInput,
  parseItemsInput,
  type ResolveItemTypes,
  resolveBuiltIns,
  resolveItems,
} from './paystubs.item-input.validation.js';
// What the payroll-runs module builds on: the one paystub creation path (P2 and salary runs).
export { validDate } from './paystubs.items.validation.js';
export type { PlanItem, PlannedPaystub, PlanPayItem } from './paystubs.plan.types.js';
// A repayment item's loan balance after its paystub: payslips show it as the paystub JSON does.
export { LOAN_BALANCE_AFTER } from './paystubs.read.repo.js';
export {
  type AddPlannedItems,
  lockCompanyRuns,
  newTransactionId,
  planAndWriteRun,
  planAndWriteRunInParts,
} from './paystubs.run.service.js';
export { PAYSTUBS_FORBIDDEN, PAYSTUBS_NOT_FOUND, type RecordRun } from './paystubs.service.js';
export { type RunTotals, runTotals } from './paystubs.totals.rules.js';
export type { WrittenPaystub } from './paystubs.writer.service.js';
