// Durable jobs (docs/decisions.md, "Jobs and mail"): rows with a run-at time, claimed with FOR
// UPDATE SKIP LOCKED so exactly one instance runs each, retried with backoff, and picked up again
// after a crash once their lease runs out.

import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../../db/client.js';
import { runAsActor } from '../audit/context.js';
import { databaseUnavailable } from '../db-errors.js';
import type { JobPayloads } from './catalog.js';
import { type JobFinish, queueRepo } from './queue.repo.js';

export interface JobContext {
  db: Db;
  log: FastifyBaseLogger;
  jobId: number;
  attempt: number;
}

/** What a handler may return: nothing (done) or a request to run again later without counting a failure. */
// biome-ignore lint/suspicious/noConfusingVoidType: handlers are `async () => {}`, whose result type is void.
export type JobOutcome = void | { retryInSeconds: number };

/**
 * The job of kind `K` in catalog `C` (the app's `JobPayloads`; the queue's own tests bring theirs).
 * The handler receives the payload `enqueue` was given for that kind.
 */
export interface JobDefinition<K extends keyof C & string, C = JobPayloads> {
  kind: K;
  maxAttempts: number;
  /** Seconds to wait before attempt `attempt + 1` after a failure. */
  backoffSeconds: (attempt: number) => number;
  // Method syntax on purpose: the queue keeps definitions of different kinds in one map, so one of
  // kind K must be usable where any kind of the catalog is expected (the map is keyed by kind).
  handler(payload: C[K], context: JobContext): Promise<JobOutcome>;
  /** Releases what the handler keeps open between jobs (an SMTP pool); called by `stop()`. */
  close?: () => void;
  /**
   * Frees the leases this kind's handler keeps on rows of its own (a webhook delivery in flight);
   * called by `releaseAbandonedClaims()` with the job rows' claims. Answers how many.
   */
  releaseAbandoned?: (db: Db) => Promise<number>;
  /**
   * A job that runs for ever (its handler answers `{retryInSeconds}`): `ensureRecurring()` (called
   * by `start()`) makes sure one open row of this kind exists for each payload, however many
   * instances start at once. Several payloads let several instances work at once, and one left
   * claimed by a killed instance (until its lease ends) does not stop the others. Its handler must
   * not throw for long: a row failed for good stops it.
   */
  recurring?: C[K][];
}

export const exponentialBackoff =
  (baseSeconds: number, capSeconds: number) =>
  (attempt: number): number =>
    Math.min(capSeconds, baseSeconds * 2 ** Math.max(0, attempt - 1));

/** A definition of any one kind of catalog `C` (what a module's `jobs()` returns). */
export type AnyJobDefinition<C = JobPayloads> = { [K in keyof C & string]: JobDefinition<K, C> }[keyof C & string];

interface ClaimedJob<C> {
  id: number;
  kind: string;
  /** Written by `enqueue` for this row's kind (or by a SQL batch of the same shape, the outbox's). */
  payload: C[keyof C & string];
  attempts: number;
  max_attempts: number;
}

export interface EnqueueOptions {
  runAt?: Date;
  delaySeconds?: number;
  maxAttempts?: number;
}

const LEASE_SECONDS = 300;
/** A job cut off by a lost database connection runs again this soon, its attempt given back. */
const DATABASE_RETRY_SECONDS = 5;

export class JobQueue<C = JobPayloads> {
  readonly workerId = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  private readonly definitions = new Map<string, JobDefinition<keyof C & string, C>>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  /**
   * Jobs this worker claimed but could not finish or give back because the database went away
   * mid-batch: given back (attempt returned) at the next turn of the loop, not after their lease.
   */
  private unreleased: number[] = [];

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly pollMs: number,
  ) {}

  define<K extends keyof C & string>(definition: JobDefinition<K, C>): void {
    this.definitions.set(definition.kind, definition);
  }

  /** Writes a job row; pass the caller's transaction so the job exists exactly when the change does. */
  async enqueue<K extends keyof C & string>(executor: Executor, kind: K, payload: C[K], options: EnqueueOptions = {}): Promise<number> {
    const runAt = options.runAt ?? new Date(Date.now() + (options.delaySeconds ?? 0) * 1000);
    const maxAttempts = options.maxAttempts ?? this.definitions.get(kind)?.maxAttempts ?? 10;
    return queueRepo.insert(executor, { kind, payload, runAt, maxAttempts });
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.ensureRecurring()
      .catch((error) => this.log.error({ err: error }, 'could not ensure the recurring jobs'))
      .finally(() => this.schedule(0));
  }

  /** One open row for each recurring definition (tests call it before `runDue`). */
  async ensureRecurring(): Promise<void> {
    for (const definition of this.definitions.values()) {
      for (const payload of definition.recurring ?? [])
        await queueRepo.ensureOpen(this.db, { kind: definition.kind, payload, maxAttempts: definition.maxAttempts });
    }
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

  /**
   * Frees every claimed, unfinished job at once instead of after its lease. Only for a process that
   * knows it is the sole worker: on the embedded database the DATA_DIR lock guarantees it, so any
   * claim left is a killed process's (a `kill -9` in the middle of a salary transfer batch). The
   * kinds' own leases go with them (`releaseAbandoned`).
   */
  async releaseAbandonedClaims(): Promise<number> {
    let released = await queueRepo.releaseAbandonedClaims(this.db);
    for (const definition of this.definitions.values()) released += (await definition.releaseAbandoned?.(this.db)) ?? 0;
    return released;
  }

  /** Claims and runs due jobs once; returns how many ran. Tests call this instead of waiting. */
  async runDue(limit = 10): Promise<number> {
    if (this.unreleased.length > 0) await this.releaseUnfinished();
    const claimed = await queueRepo.claimDue<ClaimedJob<C>>(this.db, this.workerId, limit, LEASE_SECONDS);
    const unfinished = new Set(claimed.map((job) => job.id));
    try {
      for (const job of claimed) {
        await this.runOne(job);
        unfinished.delete(job.id);
      }
    } catch (error) {
      // The database went away mid-batch (runOne's own writes failed): hold on to what is still claimed.
      this.unreleased.push(...unfinished);
      throw error;
    }
    return claimed.length;
  }

  /**
   * Gives back this worker's claims that a lost connection left behind. A job whose handler had
   * already done its work runs again, as after a crash (handlers are written for that); the guard
   * skips a job whose finishing write did commit although its answer was lost.
   */
  private async releaseUnfinished(): Promise<void> {
    const ids = this.unreleased;
    this.unreleased = [];
    try {
      await queueRepo.releaseUnfinished(this.db, this.workerId, ids);
    } catch (error) {
      this.unreleased.push(...ids);
      throw error;
    }
  }

  private async runOne(job: ClaimedJob<C>): Promise<void> {
    const definition = this.definitions.get(job.kind);
    const log = this.log.child({ jobId: job.id, kind: job.kind, attempt: job.attempts });
    if (!definition) {
      await this.finish(job.id, { kind: 'failed', message: `no handler for ${job.kind}`, unlock: false });
      log.error('job has no handler');
      return;
    }
    try {
      // A job's changes are the system's, named by the job's kind (docs/audit.md, "Who").
      const outcome = await runAsActor({ type: 'system', id: `job:${job.kind}` }, () =>
        definition.handler(job.payload, { db: this.db, log, jobId: job.id, attempt: job.attempts }),
      );
      if (outcome && 'retryInSeconds' in outcome) {
        // Asked to look again later: not a failure, so the attempt is given back.
        await this.finish(job.id, { kind: 'later', seconds: outcome.retryInSeconds, giveBackAttempt: true });
      } else {
        await this.finish(job.id, { kind: 'done' });
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (databaseUnavailable(error)) {
        // Not the job's fault: the attempt is given back and the job runs again shortly
        // (docs/operations.md, "Failures"). If this write fails too, runDue keeps the claim to give back.
        log.warn({ err: error, retryInSeconds: DATABASE_RETRY_SECONDS }, 'job lost its database connection, will retry');
        await this.finish(job.id, { kind: 'later', seconds: DATABASE_RETRY_SECONDS, giveBackAttempt: true, message });
      } else if (job.attempts >= job.max_attempts) {
        log.error({ err: error }, 'job failed for good');
        await this.finish(job.id, { kind: 'failed', message, unlock: true });
      } else {
        const wait = definition.backoffSeconds(job.attempts);
        log.warn({ err: error, retryInSeconds: wait }, 'job failed, will retry');
        await this.finish(job.id, { kind: 'later', seconds: wait, giveBackAttempt: false, message });
      }
    }
  }

  private finish(id: number, finish: JobFinish): Promise<void> {
    return queueRepo.finish(this.db, this.workerId, id, finish);
  }
}
