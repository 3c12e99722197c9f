// The `webhooks.deliver` job: drains due deliveries in batches (claimed under a lease, sent
// concurrently, outcomes written in one transaction with the endpoints' failure streaks, the
// disabled-endpoint e-mails and the wake-up jobs of the retries). Every recording transaction
// enqueues one such job, and every batch of retries enqueues one per distinct retry second, so a
// pending delivery always has a job that will look at it; a crashed sender's claim is picked up
// once its lease runs out (the job polls again for that).
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { JobDefinition, JobQueue } from '../../platform/jobs/queue.js';
import type { Mailer } from '../../platform/mail/outbox.js';
import { DELIVER_JOB } from './webhooks.events.repo.js';
import { mapPaced } from './webhooks.pacing.rules.js';
import { DISABLED_MESSAGE, disabledOutcome, planOutcome, unreadableOutcome, wakeUpDelays } from './webhooks.planner.js';
import { decryptSecret, secretKey, signatureHeader, signingKey } from './webhooks.secrets.rules.js';
import { createHttpSender } from './webhooks.sender.provider.js';
import { type ClaimedDelivery, type Outcome, senderRepo } from './webhooks.sender.repo.js';

declare module '../../platform/jobs/catalog.js' {
  interface JobPayloads {
    'webhooks.deliver': Record<string, never>;
  }
}

export const DISABLE_AFTER_SECONDS = 5 * 24 * 3600;
const BATCH = 100;
/** Attempts at work at once, and in flight at once counting those waiting on slow receivers (webhooks.pacing.rules.ts). */
const PACING = { working: 4, maxInFlight: 64, patienceMs: 50 };
/** One job run sends for at most this long, then yields to the queue's other jobs. */
const RUN_BUDGET_MS = 5000;

export function createDeliveryService(deps: { db: Db; config: Config; jobs: JobQueue; mailer: Mailer }) {
  const { db, config, jobs, mailer } = deps;
  const key = secretKey(config.webhookSecretKey);
  const leaseSeconds = Math.ceil(config.webhookTimeoutMs / 1000) + 20;
  const http = createHttpSender({
    allowHttp: config.webhookAllowHttp,
    allowPrivateNetworks: config.webhookAllowPrivateNetworks,
    timeoutMs: config.webhookTimeoutMs,
  });

  // Signing keys by stored (encrypted) secret: a batch holds many deliveries to one endpoint, whose
  // secret need not be decrypted again for each. Bounded; a rotated secret's entry just ages out.
  const keys = new Map<string, Buffer>();
  const signingKeyOf = (stored: string) => {
    let found = keys.get(stored);
    if (!found) {
      if (keys.size >= 1000) keys.clear();
      found = signingKey(decryptSecret(key, stored));
      keys.set(stored, found);
    }
    return found;
  };

  async function attempt(delivery: ClaimedDelivery): Promise<Outcome> {
    if (delivery.disabled) return disabledOutcome(delivery.id);
    if (!delivery.readable) return unreadableOutcome(delivery.id);
    const signingKeys = [delivery.secret_encrypted, delivery.previous_secret_encrypted]
      .filter((stored): stored is string => stored !== null)
      .map(signingKeyOf);
    const timestamp = new Date();
    const headers = {
      'webhook-id': delivery.event_id,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signatureHeader(signingKeys, delivery.event_id, timestamp, delivery.body),
    };
    const result = await http.send(delivery.url, headers, delivery.body);
    return planOutcome(delivery.id, delivery.attempts, result, config.webhookRetrySchedule);
  }

  /** Claims, sends and records one batch of due deliveries; returns how many were attempted. */
  async function runBatch(limit = BATCH): Promise<number> {
    const claimed = await senderRepo.claim(db, limit, leaseSeconds);
    if (claimed.length === 0) return 0;
    const outcomes = await mapPaced(claimed, PACING, attempt);
    const endpointOf = new Map(claimed.map((delivery) => [delivery.id, delivery.endpoint_id]));
    const sent = outcomes.filter((outcome) => outcome.error !== DISABLED_MESSAGE);
    const succeeded = [...new Set(sent.filter((o) => o.status === 'delivered').map((o) => endpointOf.get(o.id) as number))];
    const failed = [...new Set(sent.filter((o) => o.status !== 'delivered').map((o) => endpointOf.get(o.id) as number))];
    await db.transaction(async (tx) => {
      await senderRepo.recordOutcomes(tx, outcomes);
      const disabled = await senderRepo.updateStreaks(tx, succeeded, failed, DISABLE_AFTER_SECONDS);
      for (const endpoint of disabled) {
        const admins = await senderRepo.adminEmails(tx, endpoint.company_id);
        await mailer.sendMany(
          tx,
          admins.map((to) => ({
            companyId: endpoint.company_id,
            to,
            subject: 'A webhook endpoint was disabled',
            text:
              `Every delivery to your webhook endpoint ${endpoint.url} (id ${endpoint.id}) has failed for 5 days, ` +
              'so it has been disabled. Fix the receiver, then enable the endpoint again (PATCH /api/webhook-endpoints/' +
              `${endpoint.id} with {"disabled": false}) and retry the failed deliveries from its deliveries log.`,
          })),
        );
      }
      for (const delay of wakeUpDelays(outcomes)) await jobs.enqueue(tx, DELIVER_JOB, {}, { delaySeconds: delay });
    });
    return claimed.length;
  }

  /** Sends until nothing is due or the budget is spent; true when due deliveries are left. */
  async function drain(budgetMs = RUN_BUDGET_MS): Promise<boolean> {
    const started = Date.now();
    while (Date.now() - started < budgetMs) {
      const count = await runBatch();
      if (count < BATCH) return false;
    }
    return true;
  }

  const job: JobDefinition<typeof DELIVER_JOB> = {
    kind: DELIVER_JOB,
    maxAttempts: 10,
    backoffSeconds: (attemptNo) => Math.min(60, 2 ** attemptNo),
    handler: async () => {
      if (await drain()) return { retryInSeconds: 0 };
      // A claim still in flight (another worker's, or a killed process's): look again when its lease ends.
      const inFlight = await senderRepo.secondsUntilLeaseEnds(db);
      return inFlight === null ? undefined : { retryInSeconds: Math.ceil(inFlight) + 1 };
    },
    close: () => http.close(),
    // On the embedded database at start-up (the only worker): attempts a killed process left in
    // flight are sent again at once instead of after their lease.
    releaseAbandoned: (executor) => senderRepo.releaseLeases(executor),
  };

  return { runBatch, drain, job };
}

export type DeliveryService = ReturnType<typeof createDeliveryService>;
