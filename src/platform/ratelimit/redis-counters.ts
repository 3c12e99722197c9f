// Fixed-window counters in Redis, shared by every instance. Failures are passed on as they are:
// redis-fallback.ts decides what an unreachable Redis means (docs/operations.md, "Redis down").
import type { Redis, Result } from 'ioredis';
import type { BucketRequest, BucketResult, Counters } from './store.js';

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

// A counter's value (0 when absent) and its time left, in one round trip.
const PEEK_LUA = `
return {tonumber(redis.call('get', KEYS[1]) or '0'), redis.call('pttl', KEYS[1])}`;

// The scripts defined below with defineCommand, declared the way ioredis documents for custom
// commands: each reply is [consumed, msLeft] per key, flattened.
declare module 'ioredis' {
  interface RedisCommander<Context> {
    takeEachBucket(keyCount: number, ...args: (string | number)[]): Result<number[], Context>;
    peekBucket(key: string): Result<[number, number], Context>;
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

export function createRedisCounters(redis: Redis, windowSeconds: number, prefix: string): Counters {
  // EVALSHA after the first call: the script is not sent (nor hashed by Redis) on every request.
  redis.defineCommand('takeEachBucket', { lua: TAKE_EACH_LUA });
  redis.defineCommand('peekBucket', { lua: PEEK_LUA, numberOfKeys: 1 });
  // Keys as rate-limiter-flexible names them (`<keyPrefix>:<key>`), as the memory counters do.
  const redisKey = ({ bucket, key, limit }: BucketRequest) => `${prefix}:${bucket}:${limit}:${key}`;

  // Requests read from several sockets in one poll phase each call takeEach; they are queued and
  // sent as one EVALSHA in the check phase of the same turn (setImmediate), so that Redis is written
  // to, and woken, once per turn instead of once per request. A key taken twice in one batch is
  // counted twice, in order: the script runs its keys one after another, atomically.
  let queued: { requests: BucketRequest[]; resolve(results: BucketResult[]): void; reject(error: unknown): void }[] = [];
  const MAX_BATCH = 256; // requests per EVALSHA: a burst is sent in parts, not as one huge command
  function sendQueued(): void {
    const batch = queued;
    if (batch.length === 0) return;
    queued = [];
    const keys = batch.flatMap(({ requests }) => requests.map(redisKey));
    redis.takeEachBucket(keys.length, ...keys, windowSeconds).then(
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

  function takeEach(requests: BucketRequest[]): Promise<BucketResult[]> {
    return new Promise((resolve, reject) => {
      if (queued.length === 0) setImmediate(sendQueued);
      queued.push({ requests, resolve, reject });
      if (queued.length >= MAX_BATCH) sendQueued();
    });
  }

  return {
    takeEach,
    take: (bucket, key, limit) => takeEach([{ bucket, key, limit }]).then(([result]) => result),
    async peek(bucket, key, limit) {
      const [consumed, msLeft] = await redis.peekBucket(redisKey({ bucket, key, limit }));
      if (consumed === 0) return { limit, remaining: limit, allowed: true, retryAfterSeconds: 1 };
      return { ...fromCounter(consumed, msLeft, limit), allowed: consumed < limit };
    },
  };
}
