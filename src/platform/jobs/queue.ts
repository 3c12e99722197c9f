// Durable jobs (decisions.md §8): rows with a run-at time, claimed with FOR UPDATE SKIP LOCKED so
// exactly one instance runs each, retried with backoff, and picked up again after a crash once
// their lease runs out.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, type Executor, queryRows } from '../../db/client.js';
import { jobs } from '../../db/schema/index.js';

export interface JobContext {
  db: Db;
  log: FastifyBaseLogger;
  jobId: number;
  attempt: number;
}

/** What a handler may return: nothing (done) or a request to run again later without counting a failure. */
// biome-ignore lint/suspicious/noConfusingVoidType: handlers are `async () => {}`, whose result type is void.
export type JobOutcome = void | { retryInSeconds: number };

export interface JobDefinition<P = Record<string, unknown>> {
  kind: string;
  maxAttempts: number;
  /** Seconds to wait before attempt `attempt + 1` after a failure. */
  backoffSeconds: (attempt: number) => number;
  handler: (payload: P, context: JobContext) => Promise<JobOutcome>;
  /** Releases what the handler keeps open between jobs (an SMTP pool); called by `stop()`. */
  close?: () => void;
}

export const exponentialBackoff =
  (baseSeconds: number, capSeconds: number) =>
  (attempt: number): number =>
    Math.min(capSeconds, baseSeconds * 2 ** Math.max(0, attempt - 1));

interface ClaimedJob {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
}

export interface EnqueueOptions {
  runAt?: Date;
  delaySeconds?: number;
  maxAttempts?: number;
}

const LEASE_SECONDS = 300;

export class JobQueue {
  readonly workerId = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  private readonly definitions = new Map<string, JobDefinition>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly pollMs: number,
  ) {}

  define<P>(definition: JobDefinition<P>): void {
    this.definitions.set(definition.kind, definition as unknown as JobDefinition);
  }

  /** Writes a job row; pass the caller's transaction so the job exists exactly when the change does. */
  async enqueue(executor: Executor, kind: string, payload: Record<string, unknown>, options: EnqueueOptions = {}): Promise<number> {
    const runAt = options.runAt ?? new Date(Date.now() + (options.delaySeconds ?? 0) * 1000);
    const maxAttempts = options.maxAttempts ?? this.definitions.get(kind)?.maxAttempts ?? 10;
    const [row] = await executor.insert(jobs).values({ kind, payload, runAt, maxAttempts }).returning({ id: jobs.id });
    return row.id;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops polling and waits for the batch in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    for (const definition of this.definitions.values()) definition.close?.();
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.runDue()
        .then((count) => this.schedule(count > 0 ? 0 : this.pollMs))
        .catch((error) => {
          this.log.error({ err: error }, 'job loop failed');
          this.schedule(this.pollMs * 4);
        });
    }, ms);
    this.timer.unref?.();
  }

  /** Claims and runs due jobs once; returns how many ran. Tests call this instead of waiting. */
  async runDue(limit = 10): Promise<number> {
    const claimed = await queryRows<ClaimedJob>(
      this.db,
      sql`UPDATE jobs SET locked_at = now(), locked_by = ${this.workerId}, attempts = attempts + 1
          WHERE id IN (
            SELECT id FROM jobs
            WHERE done_at IS NULL AND failed_at IS NULL AND run_at <= now()
              AND (locked_at IS NULL OR locked_at < now() - make_interval(secs => ${LEASE_SECONDS}))
            ORDER BY run_at, id
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED)
          RETURNING id, kind, payload, attempts, max_attempts`,
    );
    for (const job of claimed) await this.runOne(job);
    return claimed.length;
  }

  private async runOne(job: ClaimedJob): Promise<void> {
    const definition = this.definitions.get(job.kind);
    const log = this.log.child({ jobId: job.id, kind: job.kind, attempt: job.attempts });
    if (!definition) {
      await this.finish(job.id, sql`failed_at = now(), last_error = ${`no handler for ${job.kind}`}`);
      log.error('job has no handler');
      return;
    }
    try {
      const outcome = await definition.handler(job.payload, { db: this.db, log, jobId: job.id, attempt: job.attempts });
      if (outcome && 'retryInSeconds' in outcome) {
        // Asked to look again later: not a failure, so the attempt is given back.
        await this.finish(
          job.id,
          sql`run_at = now() + make_interval(secs => ${outcome.retryInSeconds}), attempts = attempts - 1, locked_at = NULL, locked_by = NULL`,
        );
      } else {
        await this.finish(job.id, sql`done_at = now(), locked_at = NULL, last_error = NULL`);
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (job.attempts >= job.max_attempts) {
        log.error({ err: error }, 'job failed for good');
        await this.finish(job.id, sql`failed_at = now(), locked_at = NULL, last_error = ${message}`);
      } else {
        const wait = definition.backoffSeconds(job.attempts);
        log.warn({ err: error, retryInSeconds: wait }, 'job failed, will retry');
        await this.finish(
          job.id,
          sql`run_at = now() + make_interval(secs => ${wait}), locked_at = NULL, locked_by = NULL, last_error = ${message}`,
        );
      }
    }
  }

  private async finish(id: number, assignments: ReturnType<typeof sql>): Promise<void> {
    await this.db.execute(sql`UPDATE jobs SET ${assignments} WHERE id = ${id} AND locked_by = ${this.workerId}`);
  }
}
