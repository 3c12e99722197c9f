// Fixed-window counters in this process's memory: the store without REDIS_URL, and the fallback of
// every instance while Redis is unreachable (docs/operations.md, "Redis down").
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { BucketResult, Counters } from './store.js';

function toResult(res: RateLimiterRes, limit: number, allowed: boolean): BucketResult {
  return {
    limit,
    remaining: Math.max(0, limit - res.consumedPoints),
    allowed,
    retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}

export function createMemoryCounters(windowSeconds: number, prefix: string): Counters {
  const limiters = new Map<string, RateLimiterAbstract>();
  function limiterFor(bucket: string, limit: number): RateLimiterAbstract {
    const id = `${bucket}:${limit}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      limiter = new RateLimiterMemory({ points: limit, duration: windowSeconds, keyPrefix: `${prefix}:${id}` });
      limiters.set(id, limiter);
    }
    return limiter;
  }

  async function take(bucket: string, key: string, limit: number): Promise<BucketResult> {
    try {
      const res = await limiterFor(bucket, limit).consume(key, 1);
      return toResult(res, limit, true);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return toResult(rejection, limit, false);
      throw rejection;
    }
  }

  return {
    take,
    takeEach: (requests) => Promise.all(requests.map(({ bucket, key, limit }) => take(bucket, key, limit))),
    async peek(bucket, key, limit) {
      const res = await limiterFor(bucket, limit).get(key);
      if (!res) return { limit, remaining: limit, allowed: true, retryAfterSeconds: 1 };
      return toResult(res, limit, res.consumedPoints < limit);
    },
  };
}
