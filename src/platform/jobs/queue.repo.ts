// All SQL of the job queue (queue.ts): the jobs rows, claimed with FOR UPDATE SKIP LOCKED, and
// every write that finishes, retries or gives back a claim (only while `workerId` holds it).
import { type SQL, sql } from 'drizzle-orm';
import { type Db, type Executor, queryRows } from '../../db/client.js';
import { jobs } from '../../db/schema/index.js';

/** A claimed row as the claim returns it; queue.ts narrows `payload` to its catalog. */
export interface ClaimedRow {
  id: number;
  kind: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
}

/**
 * How a claimed job ends this turn: done; failed for good (`unlock`: its lock is cleared too); or
 * run again after `seconds` (`giveBackAttempt`: the attempt does not count; `message`: recorded as
 * its last error, or the last error is left as it is).
 */
export type JobFinish =
  | { kind: 'done' }
  | { kind: 'failed'; message: string; unlock: boolean }
  | { kind: 'later'; seconds: number; giveBackAttempt: boolean; message?: string };

function assignments(finish: JobFinish): SQL {
  switch (finish.kind) {
    case 'done':
      return sql`done_at = now(), locked_at = NULL, last_error = NULL`;
    case 'failed':
      return finish.unlock
        ? sql`failed_at = now(), locked_at = NULL, last_error = ${finish.message}`
        : sql`failed_at = now(), last_error = ${finish.message}`;
    case 'later': {
      const attempts = finish.giveBackAttempt ? sql`, attempts = attempts - 1` : sql``;
      const lastError = finish.message === undefined ? sql`` : sql`, last_error = ${finish.message}`;
      return sql`run_at = now() + make_interval(secs => ${finish.seconds})${attempts}, locked_at = NULL, locked_by = NULL${lastError}`;
    }
  }
}

export const queueRepo = {
  async insert(executor: Executor, values: { kind: string; payload: unknown; runAt: Date; maxAttempts: number }): Promise<number> {
    const [row] = await executor.insert(jobs).values(values).returning({ id: jobs.id });
    return row.id;
  },

  /**
   * Inserts an open job of `kind` with exactly `payload` unless one exists. The advisory lock makes
   * instances starting together take turns, so there is one row, not one per instance.
   */
  async ensureOpen(db: Db, values: { kind: string; payload: unknown; maxAttempts: number }): Promise<void> {
    const payload = JSON.stringify(values.payload);
    await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`jobs.recurring:${values.kind}`}))`);
      await tx.execute(
        sql`INSERT INTO jobs (kind, payload, max_attempts)
            SELECT ${values.kind}, ${payload}::jsonb, ${values.maxAttempts}
            WHERE NOT EXISTS (SELECT 1 FROM jobs WHERE kind = ${values.kind} AND payload = ${payload}::jsonb
                                AND done_at IS NULL AND failed_at IS NULL)`,
      );
    });
  },

  /** Frees every claimed, unfinished job; how many. */
  async releaseAbandonedClaims(executor: Executor): Promise<number> {
    const rows = await queryRows<{ id: number }>(
      executor,
      sql`UPDATE jobs SET locked_at = NULL, locked_by = NULL
          WHERE locked_at IS NOT NULL AND done_at IS NULL AND failed_at IS NULL RETURNING id`,
    );
    return rows.length;
  },

  /** Claims up to `limit` due jobs for `workerId` (unclaimed, or their lease of `leaseSeconds` ran out), counting an attempt. */
  claimDue<Row extends ClaimedRow>(executor: Executor, workerId: string, limit: number, leaseSeconds: number): Promise<Row[]> {
    return queryRows<Row>(
      executor,
      sql`UPDATE jobs SET locked_at = now(), locked_by = ${workerId}, attempts = attempts + 1
          WHERE id IN (
            SELECT id FROM jobs
            WHERE done_at IS NULL AND failed_at IS NULL AND run_at <= now()
              AND (locked_at IS NULL OR locked_at < now() - make_interval(secs => ${leaseSeconds}))
            ORDER BY run_at, id
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED)
          RETURNING id, kind, payload, attempts, max_attempts`,
    );
  },

  /** Gives back `workerId`'s unfinished claims of `ids`, their attempt returned. */
  async releaseUnfinished(executor: Executor, workerId: string, ids: number[]): Promise<void> {
    await executor.execute(
      sql`UPDATE jobs SET locked_at = NULL, locked_by = NULL, attempts = greatest(attempts - 1, 0)
        WHERE id IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}) AND locked_by = ${workerId} AND done_at IS NULL AND failed_at IS NULL`,
    );
  },

  async finish(executor: Executor, workerId: string, id: number, finish: JobFinish): Promise<void> {
    await executor.execute(sql`UPDATE jobs SET ${assignments(finish)} WHERE id = ${id} AND locked_by = ${workerId}`);
  },

  /**
   * Deletes up to `batch` jobs done more than `doneDays` ago and up to `batch` failed more than
   * `failedDays` ago (jobs_done_at_idx, jobs_failed_at_idx: 0261); how many. Unfinished jobs are never touched.
   */
  async pruneFinished(executor: Executor, doneDays: number, failedDays: number, batch: number): Promise<number> {
    const [row] = await queryRows<{ n: number }>(
      executor,
      sql`WITH gone AS (
            DELETE FROM jobs WHERE id IN (
              (SELECT id FROM jobs WHERE done_at < now() - make_interval(days => ${doneDays}) LIMIT ${batch})
              UNION ALL
              (SELECT id FROM jobs WHERE failed_at < now() - make_interval(days => ${failedDays}) LIMIT ${batch}))
            RETURNING 1)
          SELECT count(*)::int AS n FROM gone`,
    );
    return row.n;
  },
};
