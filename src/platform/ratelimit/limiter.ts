// Fixed-window counters behind one interface: process memory by default, Redis with REDIS_URL so
// that every instance shares them (decisions.md §4).
import { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export interface BucketResult {
  limit: number;
  remaining: number;
  allowed: boolean;
  /** Whole seconds until this bucket has room again (>= 1). */
  retryAfterSeconds: number;
}

export interface RateLimitStore {
  take(bucket: string, key: string, limit: number): Promise<BucketResult>;
  /** The bucket's state without taking a unit (an unused bucket is full). */
  peek(bucket: string, key: string, limit: number): Promise<BucketResult>;
  close(): Promise<void>;
}

function toResult(res: RateLimiterRes, limit: number, allowed: boolean): BucketResult {
  return {
    limit,
    remaining: Math.max(0, limit - res.consumedPoints),
    allowed,
    retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}

export function createRateLimitStore(options: { windowSeconds: number; redisUrl?: string; keyPrefix?: string }): RateLimitStore {
  const redis = options.redisUrl
    ? new Redis(options.redisUrl, { enableOfflineQueue: true, maxRetriesPerRequest: 2, lazyConnect: false })
    : undefined;
  const limiters = new Map<string, RateLimiterAbstract>();
  const prefix = options.keyPrefix ?? 'rl';

  function limiterFor(bucket: string, limit: number): RateLimiterAbstract {
    const id = `${bucket}:${limit}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      const common = { points: limit, duration: options.windowSeconds, keyPrefix: `${prefix}:${id}` };
      limiter = redis ? new RateLimiterRedis({ ...common, storeClient: redis }) : new RateLimiterMemory(common);
      limiters.set(id, limiter);
    }
    return limiter;
  }

  return {
    async take(bucket, key, limit) {
      try {
        const res = await limiterFor(bucket, limit).consume(key, 1);
        return toResult(res, limit, true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return toResult(rejection, limit, false);
        throw rejection;
      }
    },
    async peek(bucket, key, limit) {
      const res = await limiterFor(bucket, limit).get(key);
      if (!res) return { limit, remaining: limit, allowed: true, retryAfterSeconds: 1 };
      return toResult(res, limit, res.consumedPoints < limit);
    },
    async close() {
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
