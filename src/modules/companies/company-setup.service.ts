// Creating a company with everything it needs from its first moment: its e-mail domain, default
// user types and roles, and its payroll contribution settings. Used by the operator API, C2 and
// the demo seed, always inside the caller's transaction.
import type { Executor } from '../../db/client.js';
import { companiesRepo } from './companies.repo.js';

export const DEFAULT_USER_TYPES = ['Full-time', 'Part-time', 'Contract', 'Intern'];
export const DEFAULT_ROLES = ['super-admin', 'admin', 'finance', 'manager', 'user'];

export interface NewCompany {
  name: string;
  domain: string;
  createdBy?: number | null;
  address?: string | null;
  phone?: string | null;
  registrationId?: string | null;
  emailTemplate?: string | null;
  paymentFrequency?: string;
  status?: string;
  isActive?: boolean;
  apiAccess?: boolean;
  plan?: string;
  code?: string;
  userTypes?: string[];
  roles?: string[];
  redirectDomains?: string[];
  /** Who approves payroll runs (company-run-approval.service.ts); default `person`. */
  runApproval?: 'person' | 'token';
}

/**
 * Upper-case letters and digits of the name, at most 10 (CO when none): the code of a new company,
 * or its base when taken (ACME, ACME2, ...; the repo picks the free one as it inserts).
 */
export function companyCodeBase(name: string): string {
  return (
    name
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, '')
      .slice(0, 10) || 'CO'
  );
}

export async function setupCompany(executor: Executor, input: NewCompany) {
  return companiesRepo.insertWithVocabulary(
    executor,
    {
      name: input.name,
      domain: input.domain.toLowerCase(),
      createdBy: input.createdBy ?? null,
      address: input.address ?? null,
      phone: input.phone ?? null,
      registrationId: input.registrationId ?? null,
      emailTemplate: input.emailTemplate ?? null,
      paymentFrequency: input.paymentFrequency ?? 'monthly',
      status: input.status ?? 'approved',
      isActive: input.isActive ?? true,
      apiAccess: input.apiAccess ?? true,
      plan: input.plan ?? 'standard',
      runApproval: input.runApproval ?? 'person',
    },
    input.code === undefined ? { codeBase: companyCodeBase(input.name) } : { code: input.code },
    {
      userTypes: input.userTypes ?? DEFAULT_USER_TYPES,
      roles: input.roles ?? DEFAULT_ROLES,
      redirectDomains: (input.redirectDomains ?? []).map((host) => host.toLowerCase()),
    },
  );
}
