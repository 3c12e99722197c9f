// Payroll runs' webhook events (docs/webhooks.md), recorded in the transaction of the change: the
// run as GET /api/payroll-runs/{id} answers it, and a summary of each settled paystub.
import type { Executor } from '../../db/client.js';
import type { PayrollRunStatus } from '../../db/schema/index.js';
import { type EventType, recordEvent, recordEvents } from '../webhooks/index.js';
import { payrollRunsRepo, type RunRow } from './payroll-runs.repo.js';
import { serializeRun } from './payroll-runs.serializer.js';
import type { SettledPaystub } from './transfers/transfers.repo.js';

/** Records `type` for the run (when there is one) and hands the row back. */
export async function announceRun<R extends RunRow | undefined>(tx: Executor, row: R, type: EventType): Promise<R> {
  if (row) {
    const counts = await payrollRunsRepo.counts(tx, row.company_id, [row.id]);
    await recordEvent(tx, row.company_id, type, serializeRun(row, counts.get(row.id)));
  }
  return row;
}

const FINISHED: Partial<Record<PayrollRunStatus, EventType>> = {
  paid: 'payroll_run.paid',
  partially_paid: 'payroll_run.partially_paid',
  failed: 'payroll_run.failed',
};

/** paystub.paid / paystub.failed for a settled batch, and the run's final status when it just finished. */
export async function announceSettlement(
  tx: Executor,
  companyId: number,
  runId: string,
  settled: readonly SettledPaystub[],
  finished: PayrollRunStatus | undefined,
): Promise<void> {
  await recordEvents(
    tx,
    settled.map((p) => ({
      companyId,
      type: p.status === 'paid' ? ('paystub.paid' as const) : ('paystub.failed' as const),
      data: {
        run_id: runId,
        reference: p.reference,
        status: p.status,
        net_pay: p.net_pay,
        failure_reason: p.failure_reason,
        pay_period_start: p.pay_period_start,
        pay_period_end: p.pay_period_end,
      },
    })),
  );
  const type = finished ? FINISHED[finished] : undefined;
  if (type) await announceRun(tx, await payrollRunsRepo.find(tx, companyId, runId), type);
}
