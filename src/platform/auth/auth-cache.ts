// The authentication cache of one instance (docs/decisions.md, "Authentication cache: up to 60 s,
// revocation within 1 s"): token lookups kept up to ENTRY_MS, valid only while the authentication
// generation (migrations/0269_auth_generation.sql) was read within GENERATION_MS. Memory only; the
// authenticator (authenticate.ts) does the reads.
import type { TokenRecord } from './tokens.repo.js';

interface Entry {
  record: TokenRecord | undefined;
  /** When the read that found it started: the record is at least this new. */
  at: number;
}

export class AuthCache {
  /** How long an entry is used at most (a record's last use may be a minute behind another instance's). */
  static readonly ENTRY_MS = 60_000;
  /** How old the last read of the generation may be: the bound on revocation by another instance. */
  static readonly GENERATION_MS = 1000;
  /**
   * Entries kept, the oldest evicted first: 5 times the 10,000 callers of the goal (one live token
   * per company), so that unknown tokens and growth do not push live ones out; ~430 bytes each, so
   * ~21 MB at most (docs/decisions.md, "Authentication cache: up to 60 s, revocation within 1 s").
   */
  static readonly MAX_ENTRIES = 50_000;

  /** In order of last use (a hit moves its entry to the end), so the first is the oldest. */
  private readonly entries = new Map<string, Entry>();
  private generation: number | undefined;
  /** When the read that found `generation` started (-Infinity: never read). */
  private generationReadAt = Number.NEGATIVE_INFINITY;
  private clears = 0;

  constructor(private readonly maxEntries = AuthCache.MAX_ENTRIES) {}

  /** The cached record (undefined: no such token), or null when there is none to use. */
  get(token: string, now = Date.now()): TokenRecord | undefined | null {
    const entry = this.entries.get(token);
    if (!entry) return null;
    this.entries.delete(token);
    if (now - entry.at > AuthCache.ENTRY_MS) return null;
    this.entries.set(token, entry);
    return entry.record;
  }

  /** Keeps a record read by a statement started at `at` (see lookUp in authenticate.ts for when). */
  set(token: string, record: TokenRecord | undefined, at = Date.now()): void {
    this.entries.delete(token);
    this.entries.set(token, { record, at });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
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

  /** Forget every entry: called after any change to tokens or companies' access made here. */
  clear(): void {
    this.entries.clear();
    this.clears += 1;
  }

  get size(): number {
    return this.entries.size;
  }
}
