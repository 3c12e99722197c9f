// GET /readyz: whether this instance can serve, for the load balancer (docs/operations.md, "Health,
// metrics, logs" and "Failures"). It asks each dependency once, bounded in time, and names the
// ones that did not answer; /healthz (liveness) asks nothing.
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.js';
import type { RateLimitStore } from './ratelimit/limiter.js';
import { pingDatabase } from './readiness.repo.js';

/** A dependency that has not answered within this is unavailable (a load balancer's probe waits longer). */
export const READINESS_TIMEOUT_MS = 1000;

type Check = 'ok' | 'unavailable';

/** 'ok' when `probe` resolves truthy within the timeout; a rejection or a late answer is 'unavailable'. */
async function bounded(probe: () => Promise<unknown>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Check>((resolve) => {
    timer = setTimeout(() => resolve('unavailable'), READINESS_TIMEOUT_MS);
  });
  try {
    const answered = probe().then(
      (result) => (result === false ? 'unavailable' : 'ok') as Check,
      () => 'unavailable' as Check,
    );
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

export function registerReadiness(app: FastifyInstance, deps: { database: Database; limiter: RateLimitStore }): void {
  const { database, limiter } = deps;
  // Probes that arrive while one is running share its answer: a burst of them costs one query.
  let running: Promise<Record<string, Check>> | undefined;
  async function check(): Promise<Record<string, Check>> {
    const checkRedis = limiter.checkRedis;
    const [databaseCheck, redisCheck] = await Promise.all([
      bounded(() => pingDatabase(database)),
      checkRedis ? bounded(checkRedis) : undefined,
    ]);
    return redisCheck ? { database: databaseCheck, redis: redisCheck } : { database: databaseCheck };
  }

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    running ??= check().finally(() => {
      running = undefined;
    });
    const checks = await running;
    if (Object.values(checks).every((state) => state === 'ok')) return { status: 'ready' };
    return reply.status(503).send({ status: 'unavailable', checks });
  });
}
