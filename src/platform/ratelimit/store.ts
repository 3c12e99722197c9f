// What the rate-limit store offers, whatever holds its counters (limiter.ts builds it).

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

/** The counting operations, on one kind of storage (memory-counters.ts, redis-counters.ts). */
export interface Counters {
  take(bucket: string, key: string, limit: number): Promise<BucketResult>;
  /**
   * Takes one unit from each bucket (the per-request hot path). On Redis, the takes of every request
   * that arrives in the same turn of the event loop share one round trip.
   */
  takeEach(requests: BucketRequest[]): Promise<BucketResult[]>;
  /** The bucket's state without taking a unit (an unused bucket is full). */
  peek(bucket: string, key: string, limit: number): Promise<BucketResult>;
}

/**
 * Where the counters are: `memory` (no REDIS_URL: this process only), `redis` (shared by every
 * instance), `fallback` (REDIS_URL set but Redis unreachable: this instance's memory until it answers).
 */
export type StoreMode = 'memory' | 'redis' | 'fallback';

export interface RateLimitStore extends Counters {
  readonly mode: StoreMode;
  /** Called at each switch between `redis` and `fallback`, with why; returns the unsubscribe. */
  onModeChange(listener: (mode: StoreMode, reason: string) => void): () => void;
  /** Whether Redis answers a PING now (within the command timeout); absent without REDIS_URL. */
  checkRedis?: () => Promise<boolean>;
  close(): Promise<void>;
}
