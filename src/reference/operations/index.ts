// The catalog of the reference: one entry per operation, keyed by route name (the operator API,
// whose routes have no name, by its operationId). docs/api-reference.md says how to add one.
import { ADMIN_OPERATIONS } from './admin.js';
import { COMPANIES_OPERATIONS } from './companies.js';
import { COMPLIANCE_OPERATIONS } from './compliance.js';
import { LOANS_OPERATIONS } from './loans.js';
import { PAY_SCHEDULES_OPERATIONS } from './pay-schedules.js';
import { PAYROLL_OPERATIONS } from './payroll.js';
import type { OperationDoc } from './types.js';
import { USERS_OPERATIONS } from './users.js';
import { WALLET_OPERATIONS } from './wallet.js';

export type { OperationDoc } from './types.js';

export const OPERATIONS: Record<string, OperationDoc> = {
  ...USERS_OPERATIONS,
  ...PAYROLL_OPERATIONS,
  ...LOANS_OPERATIONS,
  ...PAY_SCHEDULES_OPERATIONS,
  ...COMPANIES_OPERATIONS,
  ...WALLET_OPERATIONS,
  ...COMPLIANCE_OPERATIONS,
  ...ADMIN_OPERATIONS,
};
