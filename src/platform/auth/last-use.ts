// Tokens' last uses, written off the request path (docs/decisions.md, "Sliding expiry, lazy writes"):
// the authenticator notes a token's use when its last write is due (at most once a minute per
// token), and the uses noted in a second are written in one statement, not awaited by any request.
// Written on close too (app.ts, onClose). A crash loses at most the last second's uses: those
// tokens' expiry is then a minute or so behind, never ahead.
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import { tokensRepo } from './tokens.repo.js';

export class LastUseWriter {
  static readonly FLUSH_MS = 1000;

  private pending = new Map<number, Date>();
  private timer: NodeJS.Timeout | undefined;
  /** The write under way, if any: writes follow each other, never overlap. */
  private writing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  /** Notes a use of token `id` at `at`; written within FLUSH_MS. */
  note(id: number, at: Date): void {
    if (this.closed) return;
    this.pending.set(id, at);
    this.schedule();
  }

  /** The uses noted and not yet written (a count, for tests and metrics). */
  get waiting(): number {
    return this.pending.size;
  }

  /** Writes every use noted so far; resolves when written (or when the write failed and was logged). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  /** Writes what is left and takes no more uses: the app's onClose, before the database closes. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => void this.flush(), LastUseWriter.FLUSH_MS);
    this.timer.unref();
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await tokensRepo.touchMany(this.db, [...batch.keys()], [...batch.values()]);
    } catch (error) {
      // The database is away: keep the uses (a later one of the same token wins) and try again.
      for (const [id, at] of batch) if (!this.pending.has(id)) this.pending.set(id, at);
      this.log.warn({ err: error, tokens: batch.size }, "could not write tokens' last uses; trying again in a second");
      this.schedule();
    }
  }
}
