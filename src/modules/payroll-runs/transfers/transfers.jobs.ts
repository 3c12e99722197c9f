// The two durable jobs of a funded run, one of each per batch of at most BATCH_SIZE transfers,
// both enqueued in the pay (or retry) transaction, so they exist exactly when the debit does:
// - payroll-runs.send: hands the batch's queued transfers to the provider. Each is marked
//   `sending` (committed) before the provider is called; a transfer found `sending` later (the
//   job crashed or was cut off) is first asked about, and sent again only if the provider never
//   received it. Refusals at send are settled as failed at once.
// - payroll-runs.settle: asks the provider about the batch's sent transfers and settles the final
//   ones; looks again later (backing off, pollDelay) while any of the batch is unsettled.
import type { Db } from '../../../db/client.js';
import { isRecord } from '../../../platform/guards.js';
import { exponentialBackoff, type JobDefinition, type JobOutcome } from '../../../platform/jobs/queue.js';
import type { Mailer } from '../../../platform/mail/outbox.js';
import type { PayslipLinks } from '../../paystubs/index.js';
import { ProviderRateLimited } from '../../wallet/index.js';
import { payrollRunsRepo } from '../payroll-runs.repo.js';
import { PartialStatus, pollDelay, rateLimitedDelay, type TransferProvider, type TransferState } from './transfer.provider.js';
import { type BatchKey, type OpenTransfer, type Outcome, transfersRepo } from './transfers.repo.js';
import { settleTransfers } from './transfers.settle.service.js';
import type { WebhookPulse } from './webhook-pulse.service.js';

export const TRANSFERS_SEND = 'payroll-runs.send';
export const TRANSFERS_SETTLE = 'payroll-runs.settle';

declare module '../../../platform/jobs/catalog.js' {
  interface JobPayloads {
    'payroll-runs.send': BatchKey;
    'payroll-runs.settle': BatchKey;
  }
}

/** Provider errors retry for a long time: funded money is never abandoned while the provider is unreachable. */
const MAX_ATTEMPTS = 200;
const backoff = exponentialBackoff(5, 600);

export interface TransferDeps {
  db: Db;
  mailer: Mailer;
  provider: TransferProvider;
  /** Signs the payslip link of each paid employee's e-mail. */
  payslipLinks: PayslipLinks;
  /** Where a rate-limited job's spread falls, in [0, 1) (rateLimitedDelay); Math.random unless given. */
  random?: () => number;
  /** The runs whose webhooks this process settled lately (settleBatch waits for them while they flow). */
  webhooks?: WebhookPulse;
}

const isBatchKey = (p: unknown): p is BatchKey =>
  isRecord(p) && Number.isInteger(p.companyId) && typeof p.runId === 'string' && Number.isInteger(p.attempt) && Number.isInteger(p.batch);

const finalOutcomes = (states: readonly TransferState[]): Outcome[] =>
  states.flatMap((s): Outcome[] =>
    s.status === 'success'
      ? [{ reference: s.reference, ok: true, reason: null }]
      : s.status === 'failed'
        ? [{ reference: s.reference, ok: false, reason: s.reason, reversed: s.reversed }]
        : [],
  );

/** The jobs to enqueue for a funded attempt of `batches` batches. */
export function batchJobs(provider: TransferProvider, key: Omit<BatchKey, 'batch'>, batches: number) {
  return Array.from({ length: batches }, (_, batch) => [
    { kind: TRANSFERS_SEND, payload: { ...key, batch }, delaySeconds: 0, maxAttempts: MAX_ATTEMPTS },
    { kind: TRANSFERS_SETTLE, payload: { ...key, batch }, delaySeconds: provider.settleAfterSeconds, maxAttempts: MAX_ATTEMPTS },
  ]).flat();
}

export async function sendBatch(deps: TransferDeps, key: BatchKey): Promise<void> {
  const { db, provider } = deps;
  const open = await transfersRepo.open(db, key);
  const queued = open.filter((t) => t.status === 'queued');
  const uncertain = open.filter((t) => t.status === 'sending');
  if (queued.length === 0 && uncertain.length === 0) return;

  // Sent before a crash? Ask first; send again only what the provider never received.
  const known = await provider.status(uncertain.map((t) => t.reference));
  const unknown = new Set(known.filter((s) => s.status === 'unknown').map((s) => s.reference));
  const toSend = [...queued, ...uncertain.filter((t) => unknown.has(t.reference))];
  await transfersRepo.markSent(
    db,
    key.companyId,
    known.filter((s) => s.status !== 'unknown').map((s) => s.reference),
  );

  const outcomes = finalOutcomes(known);
  if (toSend.length > 0) {
    const run = await payrollRunsRepo.find(db, key.companyId, key.runId);
    const company = await transfersRepo.companyName(db, key.companyId);
    const reason = `${company} salary ${run?.pay_period_start ?? ''} to ${run?.pay_period_end ?? ''}`.slice(0, 100);
    // A limit the provider already announced would refuse the bulk: come back without writing the
    // batch's rows twice (sending, then queued again).
    const limited = provider.limitedFor?.();
    if (limited !== undefined) throw new ProviderRateLimited(`${provider.name} rate limit: ${limited} s left`, limited);
    await transfersRepo.markSending(
      db,
      key.companyId,
      toSend.map((t) => t.reference),
    );
    const sending = toSend.map((t) => t.reference);
    const results = await provider
      .sendBatch(
        toSend.map((t) => ({
          reference: t.reference,
          amount: t.amount,
          bankName: t.bank_name,
          bankCode: t.bank_code,
          accountNumber: t.account_number,
          accountName: t.account_name,
          reason,
        })),
      )
      .catch(async (error: unknown) => {
        // Refused unprocessed (rate limit): none of them was received, so they go back to queued
        // and the next attempt sends them without spending verify requests on them first.
        if (error instanceof ProviderRateLimited) await transfersRepo.markQueued(db, key.companyId, sending);
        throw error;
      });
    await transfersRepo.markSent(
      db,
      key.companyId,
      results.filter((r) => r.accepted).map((r) => r.reference),
    );
    for (const r of results) if (!r.accepted) outcomes.push({ reference: r.reference, ok: false, reason: r.reason });
  }
  await settleTransfers(deps, key.companyId, key.runId, outcomes);
}

/**
 * Returns the seconds until the next look, or undefined when the whole batch is settled. A transfer
 * is asked about only once its webhook is overdue: sent `settleAfterSeconds` ago or more, or left
 * `sending` by a crash. While the run's webhooks keep coming to this process (one within the last
 * `settleAfterSeconds`), a late one is waited for up to `maxPollSeconds` after sending, looking
 * again every `settleAfterSeconds` in case they stop. Each ask is one provider request, and a run
 * paced by the provider's rate limit needs its requests for the batches not sent yet
 * (docs/payroll-runs.md, "Paystack's rate limit").
 */
export async function settleBatch(deps: TransferDeps, key: BatchKey): Promise<number | undefined> {
  const open = await transfersRepo.open(deps.db, key);
  if (open.length === 0) return undefined;
  const { settleAfterSeconds, maxPollSeconds } = deps.provider;
  const sinceWebhook = deps.webhooks?.secondsSince(key.runId);
  const flowing = sinceWebhook !== undefined && sinceWebhook < settleAfterSeconds;
  const patience = flowing ? Math.max(settleAfterSeconds, maxPollSeconds) : settleAfterSeconds;
  const overdue = (t: OpenTransfer) => t.status === 'sending' || (t.sent_seconds_ago ?? Number.POSITIVE_INFINITY) >= patience;
  const asked = open.filter((t) => t.status !== 'queued' && overdue(t));
  const waiting = open.filter((t) => t.status === 'sent' && !overdue(t));
  // When the youngest-but-oldest waiting transfer's webhook becomes overdue (sooner if the flow stops).
  const nextOverdue =
    waiting.length === 0
      ? undefined
      : Math.min(
          flowing ? settleAfterSeconds : Number.POSITIVE_INFINITY,
          Math.max(1, Math.ceil(patience - Math.max(...waiting.map((t) => t.sent_seconds_ago ?? 0)))),
        );
  if (asked.length === 0) return nextOverdue ?? pollDelay(deps.provider, 0);
  const outcomes = finalOutcomes(
    await deps.provider.status(asked.map((t) => t.reference)).catch(async (error: unknown) => {
      // Part of the batch was read before the provider's rate limit: settle that part now.
      if (error instanceof PartialStatus) await settleTransfers(deps, key.companyId, key.runId, finalOutcomes(error.states));
      throw error;
    }),
  );
  await settleTransfers(deps, key.companyId, key.runId, outcomes);
  if (outcomes.length === open.length) return undefined;
  // Backs off with the time the batch has waited (bounded): the webhook usually comes first.
  const backedOff = pollDelay(deps.provider, Math.max(0, ...asked.map((t) => t.sent_seconds_ago ?? 0)));
  return nextOverdue === undefined ? backedOff : Math.min(backedOff, nextOverdue);
}

/**
 * The provider's rate limit is not a failure: the job comes back after the provider's Retry-After
 * plus a random spread that grows with the transfer jobs waiting (rateLimitedDelay), its attempt
 * given back, so a 100,000-transfer run paced by the limit never exhausts its attempts and the
 * refused jobs do not all come back at the same moment (docs/payroll-runs.md, "Paystack's rate limit").
 */
async function rateLimited(
  deps: TransferDeps,
  work: () => Promise<JobOutcome>,
  log: { info(o: object, m: string): void },
): Promise<JobOutcome> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ProviderRateLimited)) throw error;
    const waiting = await transfersRepo.openJobs(deps.db, [TRANSFERS_SEND, TRANSFERS_SETTLE]);
    const retryInSeconds = rateLimitedDelay(error.retryAfterSeconds, waiting, (deps.random ?? Math.random)());
    log.info({ retryAfterSeconds: error.retryAfterSeconds, waiting, retryInSeconds }, 'provider rate limit, will come back');
    return { retryInSeconds };
  }
}

export function transferJobs(deps: TransferDeps): [JobDefinition<typeof TRANSFERS_SEND>, JobDefinition<typeof TRANSFERS_SETTLE>] {
  return [
    {
      kind: TRANSFERS_SEND,
      maxAttempts: MAX_ATTEMPTS,
      backoffSeconds: backoff,
      handler: async (payload, { log }) => {
        if (!isBatchKey(payload)) return log.error({ payload }, 'payroll-runs.send job without a batch key');
        return rateLimited(deps, () => sendBatch(deps, payload), log);
      },
    },
    {
      kind: TRANSFERS_SETTLE,
      maxAttempts: MAX_ATTEMPTS,
      backoffSeconds: backoff,
      handler: async (payload, { log }) => {
        if (!isBatchKey(payload)) return log.error({ payload }, 'payroll-runs.settle job without a batch key');
        return rateLimited(
          deps,
          async () => {
            const next = await settleBatch(deps, payload);
            return next === undefined ? undefined : { retryInSeconds: next };
          },
          log,
        );
      },
    },
  ];
}
