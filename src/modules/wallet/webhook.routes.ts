// POST /webhooks/paystack: not under /api auth. The signature is checked over the RAW body, so this
// plugin (encapsulated: other routes keep the normal JSON parser) reads bodies as Buffers. A signed
// event is only a hint: the provider is asked before anything is credited, and settling is guarded
// by the pending state, so replays and duplicates change nothing.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import { validPaystackSignature } from './providers/paystack.js';
import { walletRepo } from './wallet.repo.js';
import { REFERENCE_SHAPE } from './wallet.service.js';
import { type Verification, WALLET_VERIFY } from './wallet.verification.js';

export function webhookRoutes(deps: { config: Config; db: Db; jobs: JobQueue; verification: Verification }) {
  const { config, db, jobs, verification } = deps;
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
      if (!row || row.provider !== 'paystack' || row.status === 'success') return { received: true };
      try {
        if (row.status === 'failed') {
          await verification.checkLatePayment(row, request.log);
          return { received: true };
        }
        await verification.verifyOnce(reference, request.log);
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
