// POST /webhooks/paystack: not under /api auth. The signature is checked over the RAW body, so this
// plugin (encapsulated: other routes keep the normal JSON parser) reads bodies as Buffers. A signed
// charge event is only a hint: the provider is asked before anything is credited, and settling is
// guarded by the pending state, so replays and duplicates change nothing. Signed `transfer.*`
// events (salary transfers) go to the handler createModules passed in (payroll runs' own checks).
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import { validPaystackSignature } from './providers/paystack.provider.js';
import { walletRepo } from './wallet.repo.js';
import { REFERENCE_SHAPE } from './wallet.service.js';
import { type Verification, WALLET_VERIFY } from './wallet.verification.service.js';

/** How long the webhook waits for Paystack's verify before handing over to the job. */
export const WEBHOOK_BUDGET_MS = 3000;

/** Resolves to the promise's outcome, or 'slow' once `ms` have passed (the promise keeps running). */
async function within<T>(promise: Promise<T>, ms: number): Promise<{ value: T } | { error: unknown } | 'slow'> {
  let timer: NodeJS.Timeout | undefined;
  const slow = new Promise<'slow'>((resolve) => {
    timer = setTimeout(() => resolve('slow'), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      slow,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function webhookRoutes(deps: {
  config: Config;
  db: Db;
  jobs: JobQueue;
  verification: Verification;
  /** `transfer.*` events (salary transfers), handled by payroll runs (passed in: no import of it here). */
  transferEvents?: (event: string, data: unknown, log: FastifyBaseLogger) => Promise<void>;
}) {
  const { config, db, jobs, verification, transferEvents } = deps;
  return async (scope: FastifyInstance): Promise<void> => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_request, body, done) => done(null, body));

    scope.post('/webhooks/paystack', { schema: { hide: true } }, async (request, reply) => {
      const secret = config.paystackSecretKey;
      if (!secret) return reply.status(404).send({ error: 'Not found.' });
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (!validPaystackSignature(secret, raw, request.headers['x-paystack-signature'])) {
        return reply.status(401).send({ error: 'Invalid signature.' });
      }
      let event: { event?: unknown; data?: { reference?: unknown } };
      try {
        event = JSON.parse(raw.toString('utf8'));
      } catch {
        return reply.status(400).send({ error: 'Malformed JSON body.' });
      }
      if (typeof event?.event === 'string' && event.event.startsWith('transfer.')) {
        // An error (database) answers 500: Paystack sends the event again; settling it is idempotent.
        if (transferEvents) await transferEvents(event.event, event.data, request.log);
        return { received: true };
      }
      const reference = event?.data?.reference;
      // Only charge events concern top-ups; anything else is acknowledged and ignored.
      if (
        typeof event?.event !== 'string' ||
        !event.event.startsWith('charge.') ||
        typeof reference !== 'string' ||
        !REFERENCE_SHAPE.test(reference)
      ) {
        return { received: true };
      }
      const row = await walletRepo.findForVerification(db, reference);
      if (row?.provider !== 'paystack' || row.status === 'success') return { received: true };
      try {
        if (row.status === 'failed') {
          await verification.checkLatePayment(row, request.log);
          return { received: true };
        }
        // Verify inline for a prompt credit, but never keep Paystack waiting long: past the budget
        // the durable job takes over and the in-flight check finishes on its own (both are guarded).
        const outcome = await within(verification.verifyOnce(reference, request.log), WEBHOOK_BUDGET_MS);
        if (outcome === 'slow') throw new Error(`provider verification took longer than ${WEBHOOK_BUDGET_MS} ms`);
        if ('error' in outcome) throw outcome.error;
      } catch (error) {
        if (row.status !== 'pending') throw error;
        // Paystack could not confirm right now: let the durable job look again at once.
        request.log.warn({ err: error, reference }, 'webhook verification failed; queued a verification job');
        await jobs.enqueue(db, WALLET_VERIFY, { reference });
      }
      return { received: true };
    });
  };
}
