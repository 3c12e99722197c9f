// The Redis policy of the rate-limit store (docs/operations.md, "Redis down"): every Redis call is
// bounded in time, and while Redis cannot be reached each instance counts in its own memory instead
// (requests keep being served, the limits then hold per instance instead of across instances), and
// goes back to Redis by itself once Redis answers again. Each switch is reported to the listeners
// (app.ts logs it) and shows in the `ratelimit_redis_fallback` gauge (platform/metrics.ts).
import { Redis, type RedisOptions, ReplyError } from 'ioredis';
import { createMemoryCounters } from './memory-counters.js';
import { createRedisCounters } from './redis-counters.js';
import type { Counters, RateLimitStore, StoreMode } from './store.js';

/**
 * Longest a connection attempt may take before it counts as failed (then retried). No request waits
 * for it: without a connection every call is counted in memory at once. Longer than the command
 * timeout so that a slow TLS handshake, or a busy event loop, does not fail a healthy connection.
 */
const CONNECT_TIMEOUT_MS = 2000;
/** The first calls wait this long at most for the first connection (redis-fallback.ts, start). */
const STARTUP_WAIT_MS = 1000;
/** Longest any command (a batch of takes, a peek, a PING) may wait for its answer. */
const COMMAND_TIMEOUT_MS = 1000;
/** While on the fallback with the connection open (a Redis that stopped answering), ask it this often. */
const PROBE_INTERVAL_MS = 1000;

export const REDIS_OPTIONS: RedisOptions = {
  connectTimeout: CONNECT_TIMEOUT_MS,
  commandTimeout: COMMAND_TIMEOUT_MS,
  // No command waits for a connection: without one it fails at once and is counted in memory.
  enableOfflineQueue: false,
  // A command sent on a connection that then drops fails at the first reconnection attempt.
  maxRetriesPerRequest: 0,
  // Reconnect for ever, at most a second apart, so the store is back on Redis within about a second.
  retryStrategy: (attempt) => Math.min(100 * attempt, 1000),
  lazyConnect: true,
};

/**
 * Replies by which a reachable Redis says it cannot serve now (starting, busy, a replica, out of
 * memory, refusing this client). Any other reply is about the keys (say, a counter that is not a
 * number) and is passed on: it is not an outage, and counting elsewhere would hide it.
 */
const UNAVAILABLE_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|CLUSTERDOWN|TRYAGAIN|NOAUTH|WRONGPASS|NOPERM|OOM|MISCONF)\b/;

/** Whether a failed Redis call means Redis cannot be used now (no connection, a timeout, a refusal). */
export function redisUnavailable(error: unknown): boolean {
  if (error instanceof ReplyError) return UNAVAILABLE_REPLY.test((error as Error).message);
  return true; // connection closed, not writable, timed out, retries exhausted
}

export function createRedisStoreWithFallback(options: { redisUrl: string; windowSeconds: number; keyPrefix: string }): RateLimitStore {
  const redis = new Redis(options.redisUrl, REDIS_OPTIONS);
  const shared = createRedisCounters(redis, options.windowSeconds, options.keyPrefix);
  const local = createMemoryCounters(options.windowSeconds, options.keyPrefix);
  const listeners = new Set<(mode: StoreMode, reason: string) => void>();
  let mode: 'redis' | 'fallback' = 'redis';
  let closing = false;
  let lastError = '';
  let probe: NodeJS.Timeout | undefined;
  let probing = false;

  // The connection is opened at the first call, not while the app is being built: building takes
  // the CPU for seconds at a time, and a connect timer that fires before the connection's own event
  // is read would fail a healthy connection. Calls wait for that first attempt (at most
  // STARTUP_WAIT_MS), so an instance next to a healthy Redis counts in Redis from its first request.
  let started = false;
  let starting: Promise<void> | undefined;
  function start(): Promise<void> {
    starting ??= new Promise<void>((resolve) => {
      const settled = () => {
        clearTimeout(timer);
        started = true;
        resolve();
      };
      const timer = setTimeout(settled, STARTUP_WAIT_MS);
      timer.unref();
      redis.once('ready', settled);
      redis.once('close', settled);
      redis.connect().catch(() => {}); // a failure is reported by the 'close' event; ioredis then retries
    });
    return starting;
  }

  function switchTo(next: 'redis' | 'fallback', reason: string): void {
    if (mode === next || closing) return;
    mode = next;
    if (next === 'fallback') {
      probe ??= setInterval(askRedis, PROBE_INTERVAL_MS);
      probe.unref();
    } else {
      clearInterval(probe);
      probe = undefined;
    }
    for (const listener of listeners) listener(next, reason);
  }

  /** One PING: whether Redis answers now; the mode follows the answer. */
  async function askRedis(): Promise<boolean> {
    if (redis.status !== 'ready') return false; // reconnecting: the 'ready' event switches back
    if (probing) return mode === 'redis';
    probing = true;
    try {
      await redis.ping();
      switchTo('redis', 'Redis answers again');
      return true;
    } catch (error) {
      if (redisUnavailable(error)) switchTo('fallback', describe(error));
      return false;
    } finally {
      probing = false;
    }
  }

  redis.on('error', (error: Error) => {
    lastError = error.message; // reported with the next switch; ioredis retries by itself
  });
  redis.on('close', () => switchTo('fallback', `connection to Redis closed${lastError ? ` (${lastError})` : ''}`));
  redis.on('ready', () => {
    lastError = '';
    switchTo('redis', 'Redis answers again');
  });

  function describe(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
  }

  /** Counts in Redis; when Redis cannot be used, switches to the fallback and counts in memory. */
  function counted<T>(onRedis: (counters: Counters) => Promise<T>): Promise<T> {
    if (!started) return start().then(() => counted(onRedis));
    if (mode === 'fallback') return onRedis(local);
    return onRedis(shared).catch((error: unknown) => {
      if (!redisUnavailable(error)) throw error;
      switchTo('fallback', describe(error));
      return onRedis(local);
    });
  }

  return {
    get mode() {
      return mode;
    },
    take: (bucket, key, limit) => counted((counters) => counters.take(bucket, key, limit)),
    takeEach: (requests) => counted((counters) => counters.takeEach(requests)),
    peek: (bucket, key, limit) => counted((counters) => counters.peek(bucket, key, limit)),
    onModeChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    checkRedis: async () => {
      if (!started) await start();
      return askRedis();
    },
    async close() {
      closing = true;
      clearInterval(probe);
      listeners.clear();
      if (redis.status === 'wait') return redis.disconnect(); // never connected: a QUIT would connect first
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
