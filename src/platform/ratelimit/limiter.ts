// Fixed-window counters behind one interface: process memory by default, Redis with REDIS_URL so
// that every instance shares them (docs/reference.md, "Rate limits"), with a per-instance memory
// fallback while Redis is unreachable (redis-fallback.ts; docs/operations.md, "Redis down").
import { createMemoryCounters } from './memory-counters.js';
import { createRedisStoreWithFallback } from './redis-fallback.js';
import type { RateLimitStore } from './store.js';

export type { BucketRequest, BucketResult, Counters, RateLimitStore, StoreMode } from './store.js';

export function createRateLimitStore(options: { windowSeconds: number; redisUrl?: string; keyPrefix?: string }): RateLimitStore {
  const keyPrefix = options.keyPrefix ?? 'rl';
  if (options.redisUrl)
    return createRedisStoreWithFallback({ redisUrl: options.redisUrl, windowSeconds: options.windowSeconds, keyPrefix });
  const counters = createMemoryCounters(options.windowSeconds, keyPrefix);
  return {
    ...counters,
    mode: 'memory',
    onModeChange: () => () => {},
    async close() {},
  };
}
