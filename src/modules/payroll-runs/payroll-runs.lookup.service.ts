// What every payroll-run entry point shares: the messages of docs/payroll-runs.md, "Routes and
// messages", finding a run of the company (another company's run is simply not found) and its wire
// view with paystub counts.
import type { Executor } from '../../db/client.js';
import { notFound } from '../../platform/errors.js';
import { payrollRunsRepo, type RunRow } from './payroll-runs.repo.js';
import { serializeRun } from './payroll-runs.serializer.js';

export const RUN_NOT_FOUND = 'Payroll run not found.';
export const RUNS_FORBIDDEN = "You do not have permission to access this company's payroll runs.";
export const MESSAGES = {
  created: 'Payroll run created.',
  listed: 'Payroll runs retrieved successfully',
  shown: 'Payroll run retrieved successfully',
  approved: 'Payroll run approved.',
  paying: 'Payment started.',
  cancelled: 'Payroll run cancelled.',
  onlyDraftApproved: 'Only a draft run can be approved.',
  onlyApprovedPaid: 'Only an approved run can be paid.',
  onlyFailedRetried: 'Only a failed or partially paid run can be retried.',
  onlyOpenCancelled: 'Only a draft or approved run can be cancelled.',
  approverRequired: 'The approver email field is required.',
  notApprover: 'The approver must be an active admin of the company.',
  approverIsCreator: 'The approver must be a different administrator from the creator.',
  creatorUnknown: 'The created by email must be the e-mail of a user of the company.',
  nothingToPay: 'No paystub could be made for this run.',
  reasonOffCycleOnly: 'The reason field applies only to off-cycle runs.',
  usersOffCycleOnly: 'The users field applies only to off-cycle runs; a regular run takes user_ids and items.',
  offCycleReason: 'The reason must be one of bonus, correction, final_pay, other.',
  offCycleUsers: 'An off-cycle run needs users: [{user_id, items: [...]}], each with at least one item.',
  offCycleSalaryFields: 'An off-cycle run pays items only: give users, not user_ids or items.',
  offCycleUserTwice: 'Each user may appear in users once.',
} as const;

export const RUN_STATUSES = ['draft', 'approved', 'processing', 'paid', 'partially_paid', 'failed', 'cancelled'] as const;
export const RUN_ID = /^PR-\d{8}-[A-Z0-9]{6}$/;

export async function runView(db: Executor, row: RunRow) {
  const counts = await payrollRunsRepo.counts(db, row.company_id, [row.id]);
  return serializeRun(row, counts.get(row.id));
}

/** The run, or 404 (another company's run is simply not found). */
export async function findRun(db: Executor, companyId: number, id: string): Promise<RunRow> {
  const row = RUN_ID.test(id) ? await payrollRunsRepo.find(db, companyId, id) : undefined;
  if (!row) throw notFound(RUN_NOT_FOUND);
  return row;
}
