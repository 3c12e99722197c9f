// Fixed-window counters behind one interface: process memory by default, Redis with REDIS_URL so
// that every instance shares them (decisions.md §4).
import { Redis, type Result } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export interface BucketResult {
  limit: number;
  remaining: number;
  allowed: boolean;
  /** Whole seconds until this bucket has room again (>= 1). */
  retryAfterSeconds: number;
}

export interface BucketRequest {
  bucket: string;
  key: string;
  limit: number;
}

export interface RateLimitStore {
  take(bucket: string, key: string, limit: number): Promise<BucketResult>;
  /** Takes one unit from each bucket; on Redis in one round trip (the per-request hot path). */
  takeEach(requests: BucketRequest[]): Promise<BucketResult[]>;
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

// The same fixed-window step as rate-limiter-flexible's own Redis script, for every key at once:
// create the counter with the window as expiry if absent, add one, read the time left.
const TAKE_EACH_LUA = `
local out = {}
for i, key in ipairs(KEYS) do
  redis.call('set', key, 0, 'EX', ARGV[1], 'NX')
  local consumed = redis.call('incrby', key, 1)
  local ttl = redis.call('pttl', key)
  if ttl == -1 then
    redis.call('expire', key, ARGV[1])
    ttl = 1000 * ARGV[1]
  end
  out[2 * i - 1] = consumed
  out[2 * i] = ttl
end
return out`;

// The script defined below with defineCommand, declared the way ioredis documents for custom
// commands: its reply is [consumed, msLeft] for each key, flattened.
declare module 'ioredis' {
  interface RedisCommander<Context> {
    takeEachBucket(keyCount: number, ...args: (string | number)[]): Result<number[], Context>;
  }
}

function fromCounter(consumed: number, msLeft: number, limit: number): BucketResult {
  return {
    limit,
    remaining: Math.max(0, limit - consumed),
    allowed: consumed <= limit,
    retryAfterSeconds: Math.max(1, Math.ceil(Math.max(0, msLeft) / 1000)),
  };
}

export function createRateLimitStore(options: { windowSeconds: number; redisUrl?: string; keyPrefix?: string }): RateLimitStore {
  const redis = options.redisUrl
    ? new Redis(options.redisUrl, { enableOfflineQueue: true, maxRetriesPerRequest: 2, lazyConnect: false })
    : undefined;
  // EVALSHA after the first call: the script is not sent (nor hashed by Redis) on every request.
  redis?.defineCommand('takeEachBucket', { lua: TAKE_EACH_LUA });
  const limiters = new Map<string, RateLimiterAbstract>();
  const prefix = options.keyPrefix ?? 'rl';
  // Keys as rate-limiter-flexible names them (`<keyPrefix>:<key>`), so take, takeEach and peek agree.
  const redisKey = ({ bucket, key, limit }: BucketRequest) => `${prefix}:${bucket}:${limit}:${key}`;

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
    async takeEach(requests) {
      if (!redis) return Promise.all(requests.map(({ bucket, key, limit }) => take(bucket, key, limit)));
      const counters = await redis.takeEachBucket(requests.length, ...requests.map(redisKey), options.windowSeconds);
      return requests.map((request, index) => fromCounter(counters[2 * index], counters[2 * index + 1], request.limit));
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
