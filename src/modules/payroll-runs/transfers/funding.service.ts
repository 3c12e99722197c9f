// pay and retry: ONE transaction each (docs/payroll-runs.md, "exactly once", step 1):
//   1. the run moves approved (pay) or failed/partially_paid (retry) → processing by one
//      conditional UPDATE, which also counts the funding attempt; a loser gets no row → 409;
//   1b. retry: 409 when a failed paystub's employee changed bank account since approval (the new
//      one needs approval first); pay: 409 when every paystub left is held (docs/payroll-runs.md,
//      "Held paystubs"); held paystubs are never funded;
//   2. paystubs whose pinned destination (approval's bank details, never the user's current ones)
//      is not a usable bank account (a bank_code and a valid NUBAN there) fail ("No valid bank account.");
//   3. the others move to processing, each with a fresh reference, and a queued transfer row each
//      to its pinned destination;
//   4. the balance row is locked and must cover their net pay, else 409 with the figures and the
//      whole transaction (1-3 included) is rolled back;
//   5. one debit entry (unique per run and attempt; the database's CHECK refuses a negative
//      balance whatever the code did), and the send and settle jobs of every batch;
//   6. a run with nothing to transfer ends at once.
import crypto from 'node:crypto';
import type { Db } from '../../../db/client.js';
import { recordAudit } from '../../../platform/audit/index.js';
import { conflict } from '../../../platform/errors.js';
import { markIdempotentChange } from '../../../platform/idempotency-claims.js';
import { koboToString, toKobo } from '../../../tax-engine/money.js';
import { walletLedger } from '../../wallet/index.js';
import { refuseAllHeld, refuseChangedDestinations } from '../approval/destinations.service.js';
import { announceSettlement } from '../payroll-runs.events.js';
import { payablePaystubs } from '../payroll-runs.planner.js';
import { payrollRunsRepo } from '../payroll-runs.repo.js';
import { findRun, MESSAGES, runView } from '../payroll-runs.service.js';
import type { TransferProvider } from './transfer.provider.js';
import { batchJobs } from './transfers.jobs.js';
import { transfersRepo } from './transfers.repo.js';

export const INSUFFICIENT = 'Insufficient wallet balance.';

/** `PT-<8 random>-<paystub id>`: unique per paystub attempt (and across databases sharing one provider account). */
const referencePrefix = () => `PT-${crypto.randomBytes(4).toString('hex').toUpperCase()}-`;

export function createFunding(deps: { db: Db; provider: TransferProvider }) {
  const { db, provider } = deps;

  async function fund(companyId: number, id: string, mode: 'pay' | 'retry') {
    await findRun(db, companyId, id);
    const run = await db.transaction(async (tx) => {
      const started = await payrollRunsRepo.startFunding(tx, companyId, id, mode === 'pay' ? ['approved'] : ['partially_paid', 'failed']);
      if (!started) throw conflict(mode === 'pay' ? MESSAGES.onlyApprovedPaid : MESSAGES.onlyFailedRetried);
      const from = mode === 'pay' ? 'unpaid' : 'failed';
      // Before anything moves them: the run's paystubs by id, the order a bank change takes them in.
      await payrollRunsRepo.lockPaystubs(tx, companyId, id, [from]);
      // A retry never sends to an account the employee has left before its new one is approved.
      if (mode === 'retry') await refuseChangedDestinations(tx, companyId, id);
      const accounts = await payrollRunsRepo.paystubAccounts(tx, companyId, id, from);
      // Every paystub held: nothing to pay until their new accounts are approved (the others were).
      if (accounts.length === 0 && mode === 'pay') await refuseAllHeld(tx, companyId, id);
      const payable = payablePaystubs(accounts);
      await payrollRunsRepo.failUnbankable(tx, companyId, id, from, payable);
      const funded = await payrollRunsRepo.fundPaystubs(tx, companyId, id, {
        from,
        payable,
        prefix: referencePrefix(),
        attempt: started.attempt,
        provider: provider.name,
      });
      const required = toKobo(funded.total) ?? 0n;
      const available = toKobo(await walletLedger.lockBalance(tx, companyId)) ?? 0n;
      if (available < required) {
        throw conflict(INSUFFICIENT, {
          required: koboToString(required),
          available: koboToString(available),
          shortfall: koboToString(required - available),
        });
      }
      if (funded.transfers > 0) {
        await walletLedger.debit(tx, companyId, {
          reference: `${id}-A${started.attempt}`,
          amount: funded.total,
          description: `Payroll run ${id}${started.attempt > 1 ? ` (retry ${started.attempt - 1})` : ''}: ${funded.transfers} transfers`,
        });
        await transfersRepo.enqueueBatches(tx, batchJobs(provider, { companyId, runId: id, attempt: started.attempt }, funded.batches));
      }
      await announceSettlement(tx, companyId, id, [], await payrollRunsRepo.finish(tx, companyId, id));
      await markIdempotentChange(tx, { kind: 'payroll-run', id });
      if (mode === 'retry')
        await recordAudit(tx, [
          {
            companyId,
            action: 'payroll_run.retried',
            target: { type: 'payroll_run', id },
            changes: { attempt: [started.attempt - 1, started.attempt] },
          },
        ]);
      return (await payrollRunsRepo.find(tx, companyId, id)) ?? started;
    });
    return { message: MESSAGES.paying, run: await runView(db, run) };
  }

  return {
    pay: (companyId: number, id: string) => fund(companyId, id, 'pay'),
    retry: (companyId: number, id: string) => fund(companyId, id, 'retry'),
  };
}
