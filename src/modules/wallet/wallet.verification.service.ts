// Settling a pending top-up from the provider's answer — shared by the verification job and the
// Paystack webhook. The credit happens only for a verified success whose amount and currency match
// what was asked, and only once (walletRepo.creditIfPending).
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { exponentialBackoff, type JobDefinition, type JobOutcome } from '../../platform/jobs/queue.js';
import { parseKobo } from '../../tax-engine/money.js';
import type { Providers } from './providers/index.js';
import type { VerifyResult } from './providers/payment.provider.js';
import { type WalletTransactionRow, walletRepo } from './wallet.repo.js';
import { creditTopUpOnce } from './wallet-ledger.service.js';

export const WALLET_VERIFY = 'wallet.verify';

declare module '../../platform/jobs/catalog.js' {
  interface JobPayloads {
    'wallet.verify': { reference: string };
  }
}
/** A provider that still says pending is asked again for this long after creation, then the top-up fails. */
export const PENDING_LIMIT_SECONDS = 24 * 60 * 60;
/** Backoff between "still pending" checks: 1 min doubling to at most 1 h (about 30 checks in 24 h). */
export const pendingBackoff = exponentialBackoff(60, 3600);

export type SettleOutcome = 'success' | 'failed' | 'pending' | 'already-settled';

export function createVerification(deps: { db: Db; providers: Providers }) {
  const { db, providers } = deps;

  /** Applies a provider answer to a pending transaction. */
  async function apply(row: WalletTransactionRow, result: VerifyResult, log: FastifyBaseLogger): Promise<SettleOutcome> {
    if (result.status === 'pending') return 'pending';
    if (result.status === 'failed') {
      return (await walletRepo.failIfPending(db, row.reference, 'payment_failed', result.raw)) ? 'failed' : 'already-settled';
    }
    const expected = parseKobo(row.amount);
    if (result.amountKobo !== expected || result.currency !== row.currency) {
      // Paid, but not what was asked: never credit. Kept failed with the provider's answer for reconciliation.
      log.error(
        { reference: row.reference, expected: String(expected), got: String(result.amountKobo), currency: result.currency },
        'top-up amount or currency mismatch',
      );
      const reason = result.currency !== row.currency ? 'currency_mismatch' : 'amount_mismatch';
      return (await walletRepo.failIfPending(db, row.reference, reason, result.raw)) ? 'failed' : 'already-settled';
    }
    const credited = await db.transaction((tx) => creditTopUpOnce(tx, row.reference, result.raw));
    if (credited) log.info({ reference: row.reference, companyId: row.companyId, amount: row.amount }, 'wallet credited');
    return credited ? 'success' : 'already-settled';
  }

  /** Asks the transaction's provider once and settles. Provider errors propagate (the caller retries). */
  async function verifyOnce(
    reference: string,
    log: FastifyBaseLogger,
  ): Promise<{ outcome: SettleOutcome; row?: WalletTransactionRow; attempts: number }> {
    const row = await walletRepo.findForVerification(db, reference);
    if (row?.status !== 'pending') return { outcome: 'already-settled', row, attempts: row?.verifyAttempts ?? 0 };
    const provider = providers.get(row.provider);
    if (!provider) throw new Error(`payment provider "${row.provider}" is not configured on this instance`);
    const attempts = await walletRepo.noteVerifyAttempt(db, reference);
    const result = await provider.verify(reference);
    return { outcome: await apply(row, result, log), row, attempts };
  }

  /** Webhook for a top-up we already expired: if the provider confirms it was paid after all, flag it for reconciliation. */
  async function checkLatePayment(row: WalletTransactionRow, log: FastifyBaseLogger): Promise<boolean> {
    const provider = providers.get(row.provider);
    if (!provider || row.status !== 'failed' || row.failureReason !== 'expired') return false;
    const result = await provider.verify(row.reference);
    if (result.status !== 'success') return false;
    const flagged = await walletRepo.markPaidAfterExpiry(db, row.reference, result.raw);
    if (flagged)
      log.error(
        { reference: row.reference, companyId: row.companyId, amount: row.amount },
        'payment confirmed after the top-up expired: reconcile (refund or credit by hand)',
      );
    return flagged;
  }

  /** The `wallet.verify` job: settle, or look again later while pending, failing after 24 h. */
  async function verifyJob(reference: string, log: FastifyBaseLogger): Promise<JobOutcome> {
    const { outcome, row, attempts } = await verifyOnce(reference, log);
    if (outcome !== 'pending' || !row) return;
    const deadline = row.createdAt.getTime() + PENDING_LIMIT_SECONDS * 1000;
    const left = Math.ceil((deadline - Date.now()) / 1000);
    if (left <= 0) {
      await walletRepo.failIfPending(db, reference, 'expired', undefined);
      log.info({ reference }, 'top-up still pending after 24 h: failed');
      return;
    }
    return { retryInSeconds: Math.max(1, Math.min(pendingBackoff(attempts), left)) };
  }

  return { verifyOnce, verifyJob, checkLatePayment };
}

export type Verification = ReturnType<typeof createVerification>;

export function walletVerifyJob(verification: Verification): JobDefinition<typeof WALLET_VERIFY> {
  return {
    kind: WALLET_VERIFY,
    // Provider errors (timeouts, 5xx) retry with backoff up to 1 h for many days: a top-up is never
    // given up while the provider cannot answer; only a provider answer (or 24 h of "pending") settles it.
    maxAttempts: 500,
    backoffSeconds: exponentialBackoff(30, 3600),
    handler: async (payload, context) => {
      // A malformed payload can never succeed: record it and stop rather than retry for weeks.
      if (typeof payload?.reference !== 'string') {
        context.log.error({ payload }, 'wallet.verify job without a reference');
        return;
      }
      return verification.verifyJob(payload.reference, context.log);
    },
  };
}
