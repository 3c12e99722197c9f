// Payment destinations (docs/payroll-runs.md, "Payment destinations"): what is approved is what is
// paid. Approval pins each paystub's destination and the employee as the payslip shows them; a
// bank change after approval holds the paystub (the trigger of 0186_paystub_destinations.sql); a
// later approval of the run releases held paystubs (and failed ones whose account changed) with
// the employee's new account. Both are called inside the approving transaction.
import type { Executor } from '../../../db/client.js';
import { conflict } from '../../../platform/errors.js';
import { type Approval, payrollRunsRepo, type RunRow } from '../payroll-runs.repo.js';
import { destinationsRepo } from './destinations.repo.js';

export const NEEDS_APPROVAL = 'These paystubs need approval of their new bank account first.';

/** Pins the destinations of the run's approvable paystubs (all, or `paystubIds`); returns the ids pinned. */
export function pinDestinations(tx: Executor, companyId: number, runId: string, options: { paystubIds?: readonly number[] } = {}) {
  return destinationsRepo.pin(tx, companyId, runId, options.paystubIds);
}

/** The ids of the run's paystubs that wait for an approval of a new bank account (held, or failed and changed). */
export async function paystubsAwaitingApproval(db: Executor, companyId: number, runId: string): Promise<number[]> {
  return (await destinationsRepo.awaitingApproval(db, companyId, runId)).map((p) => p.id);
}

/**
 * Approval of a run that is no longer a draft: releases the paystubs waiting for approval of a new
 * bank account, pinned to it (held → unpaid; failed ones stay failed for `retry`). Locks the run row
 * first, like pay and retry, so a release and a pay of one run take turns. Undefined when the run
 * has nothing to release (or is cancelled): the caller answers as for any run that is not a draft.
 */
export async function releaseHeld(tx: Executor, companyId: number, runId: string, approval: Approval): Promise<RunRow | undefined> {
  const run = await payrollRunsRepo.lock(tx, companyId, runId);
  if (!run || run.status === 'draft' || run.status === 'cancelled') return undefined;
  const waiting = await paystubsAwaitingApproval(tx, companyId, runId);
  if (waiting.length === 0) return undefined;
  await pinDestinations(tx, companyId, runId, { paystubIds: waiting });
  await destinationsRepo.reopen(tx, companyId, runId, approval);
  // Hook point: the audit log records the release (who approved which new destinations) here.
  return payrollRunsRepo.find(tx, companyId, runId);
}

/** retry: 409 with the ids when a failed paystub's destination changed since it was approved. */
export async function refuseChangedDestinations(tx: Executor, companyId: number, runId: string): Promise<void> {
  const changed = (await destinationsRepo.awaitingApproval(tx, companyId, runId)).filter((p) => p.status === 'failed').map((p) => p.id);
  if (changed.length > 0) throw conflict(NEEDS_APPROVAL, { paystub_ids: changed });
}

/** pay of a run whose paystubs left to pay are all held: 409 with their ids, nothing changes. */
export async function refuseAllHeld(tx: Executor, companyId: number, runId: string): Promise<void> {
  const held = (await destinationsRepo.awaitingApproval(tx, companyId, runId)).filter((p) => p.status === 'held').map((p) => p.id);
  if (held.length > 0) throw conflict(NEEDS_APPROVAL, { paystub_ids: held });
}
