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
  /**
   * Takes one unit from each bucket (the per-request hot path). On Redis, the takes of every request
   * that arrives in the same turn of the event loop share one round trip.
   */
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

  // Requests read from several sockets in one poll phase each call takeEach; they are queued and
  // sent as one EVALSHA in the check phase of the same turn (setImmediate), so that Redis is written
  // to, and woken, once per turn instead of once per request. A key taken twice in one batch is
  // counted twice, in order: the script runs its keys one after another, atomically.
  let queued: { requests: BucketRequest[]; resolve(results: BucketResult[]): void; reject(error: unknown): void }[] = [];
  const MAX_BATCH = 256; // requests per EVALSHA: a burst is sent in parts, not as one huge command
  function sendQueued(): void {
    const batch = queued;
    if (!redis || batch.length === 0) return;
    queued = [];
    const keys = batch.flatMap(({ requests }) => requests.map(redisKey));
    redis.takeEachBucket(keys.length, ...keys, options.windowSeconds).then(
      (counters) => {
        let first = 0; // this request's first key in the batch
        for (const { requests, resolve } of batch) {
          resolve(requests.map((request, i) => fromCounter(counters[2 * (first + i)], counters[2 * (first + i) + 1], request.limit)));
          first += requests.length;
        }
      },
      (error: unknown) => {
        for (const { reject } of batch) reject(error);
      },
    );
  }

  return {
    take,
    takeEach(requests) {
      if (!redis) return Promise.all(requests.map(({ bucket, key, limit }) => take(bucket, key, limit)));
      return new Promise((resolve, reject) => {
        if (queued.length === 0) setImmediate(sendQueued);
        queued.push({ requests, resolve, reject });
        if (queued.length >= MAX_BATCH) sendQueued();
      });
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
