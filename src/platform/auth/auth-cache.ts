// The authentication cache of one instance (docs/decisions.md, "Authentication cache: up to 60 s,
// revocation within 1 s"): API token lookups and console sessions kept up to ENTRY_MS, valid only
// while the authentication generation (migrations/0269_auth_generation.sql, 0273) was read within
// GENERATION_MS. Memory only; the authenticator (authenticate.ts) and the console's session
// service do the reads, through `readThrough` and `readAndKeep` below.
import type { TokenRecord } from './tokens.repo.js';

interface Entry<T> {
  record: T | undefined;
  /** When the read that found it started: the record is at least this new. */
  at: number;
}

/** Entries of one kind, the least recently used evicted first; `AuthCache` decides when they are valid. */
export class EntryCache<T> {
  /** In order of last use (a hit moves its entry to the end), so the first is the oldest. */
  private readonly entries = new Map<string, Entry<T>>();

  /** `paused`: while it answers true, nothing is used or kept (console-access.ts, `holdConsoleSessions`). */
  constructor(
    private readonly maxEntries: number,
    private readonly paused: (now: number) => boolean = () => false,
  ) {}

  /** The cached record (undefined: no such key), or null when there is none to use. */
  get(key: string, now = Date.now()): T | undefined | null {
    if (this.paused(now)) return null;
    const entry = this.entries.get(key);
    if (!entry) return null;
    this.entries.delete(key);
    if (now - entry.at > AuthCache.ENTRY_MS) return null;
    this.entries.set(key, entry);
    return entry.record;
  }

  set(key: string, record: T | undefined, at = Date.now()): void {
    this.entries.delete(key);
    if (this.paused(Date.now())) return;
    this.entries.set(key, { record, at });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

export class AuthCache {
  /** How long an entry is used at most (a record's last use may be a minute behind another instance's). */
  static readonly ENTRY_MS = 60_000;
  /** How old the last read of the generation may be: the bound on revocation by another instance. */
  static readonly GENERATION_MS = 1000;
  /**
   * Token entries kept, the oldest evicted first: 5 times the 10,000 callers of the goal (one live
   * token per company), so that unknown tokens and growth do not push live ones out; ~430 bytes
   * each, so ~21 MB at most (docs/decisions.md, "Authentication cache: up to 60 s, revocation within 1 s").
   */
  static readonly MAX_ENTRIES = 50_000;

  /** The API tokens' entries, by token. */
  readonly tokens: EntryCache<TokenRecord>;
  /** Every kind of entry that lives and dies by the generation: the tokens' and those attached. */
  private readonly kinds: EntryCache<unknown>[];
  private generation: number | undefined;
  /** When the read that found `generation` started (-Infinity: never read). */
  private generationReadAt = Number.NEGATIVE_INFINITY;
  private clears = 0;
  /** The one read of the generation under way; every request that needs it waits for the same. */
  private reading: Promise<void> | undefined;

  constructor(maxEntries = AuthCache.MAX_ENTRIES) {
    this.tokens = new EntryCache<TokenRecord>(maxEntries);
    this.kinds = [this.tokens];
  }

  /** Another kind of entry, valid under the same generation and emptied with the tokens' (console sessions). */
  attach<T>(entries: EntryCache<T>): EntryCache<T> {
    this.kinds.push(entries as EntryCache<unknown>);
    return entries;
  }

  /** The cached token record (undefined: no such token), or null when there is none to use. */
  get(token: string, now = Date.now()): TokenRecord | undefined | null {
    return this.tokens.get(token, now);
  }

  /** Keeps a token record read by a statement started at `at` (see `readAndKeep`). */
  set(token: string, record: TokenRecord | undefined, at = Date.now()): void {
    this.tokens.set(token, record, at);
  }

  /**
   * Moves with every clear: a read that began before a clear and ends after it may bring back the
   * row the clear was for, so a reader takes the epoch first and keeps its answer only if unchanged.
   */
  get epoch(): number {
    return this.clears;
  }

  /** True when the generation was read by a statement started within GENERATION_MS of `now`. */
  current(now: number): boolean {
    return now - this.generationReadAt <= AuthCache.GENERATION_MS;
  }

  /**
   * The generation as read by a statement started at `readAt`. A newer one than known empties the
   * cache (some access may have been taken away). An older one (a slower statement of an earlier
   * snapshot) changes nothing and answers false: what that statement read may be out of date.
   */
  observe(generation: number, readAt: number): boolean {
    if (this.generation !== undefined && generation < this.generation) return false;
    if (this.generation !== undefined && generation > this.generation) this.clear();
    this.generation = generation;
    this.generationReadAt = Math.max(this.generationReadAt, readAt);
    return true;
  }

  /** Reads the generation with `read`, one read at a time: a second caller waits for the first's. */
  refresh(read: () => Promise<number>): Promise<void> {
    this.reading ??= (async () => {
      const at = Date.now();
      try {
        this.observe(await read(), at);
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }

  /** Forget every entry of every kind: called after any change to access made here. */
  clear(): void {
    for (const kind of this.kinds) kind.clear();
    this.clears += 1;
  }

  /** The tokens' entries (what the in-memory tests count). */
  get size(): number {
    return this.tokens.size;
  }
}

/** A read of one key that also brings the generation, in one statement (one snapshot). */
export type ReadWithGeneration<T> = () => Promise<{ generation: number; record: T | undefined }>;

/**
 * Reads a key with the generation and keeps the answer, unless the cache was emptied meanwhile or
 * the statement saw an older generation than one already known.
 */
export async function readAndKeep<T>(
  cache: AuthCache,
  entries: EntryCache<T>,
  key: string,
  read: ReadWithGeneration<T>,
): Promise<T | undefined> {
  const epoch = cache.epoch;
  const at = Date.now();
  const { generation, record } = await read();
  const untouched = cache.epoch === epoch;
  if (cache.observe(generation, at) && untouched) entries.set(key, record, at);
  return record;
}

/**
 * A key's record as of a read started at most GENERATION_MS before `now`: from the cache when the
 * generation was read since, else after reading it (folded into the key's own read on a miss).
 * Two rounds at most: a read under way may have started too early.
 */
export async function readThrough<T>(
  cache: AuthCache,
  entries: EntryCache<T>,
  key: string,
  now: number,
  read: ReadWithGeneration<T>,
  readGeneration: () => Promise<number>,
): Promise<T | undefined> {
  for (;;) {
    const cached = entries.get(key, now);
    if (cached === null) return readAndKeep(cache, entries, key, read);
    if (cache.current(now)) return cached;
    await cache.refresh(readGeneration);
  }
}
