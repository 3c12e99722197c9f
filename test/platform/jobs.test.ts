// Durable jobs (docs/decisions.md, "Jobs and mail") on a real database: backoff, attempts,
// `retryInSeconds`, lease expiry after a crash, two queues never running one job twice, and the job
// catalog. Mail delivery through the outbox is in outbox-smtp.test.ts.
import { eq, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type Db, openPostgres } from '../../src/db/client.js';
import { jobs } from '../../src/db/schema/index.js';
import { type JobDefinition, JobQueue } from '../../src/platform/jobs/queue.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const log = Fastify({ logger: { level: 'silent' } }).log;
let testDb: TestDatabase;
let db: Db;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = testDb.database.db;
});
afterAll(() => testDb.close());

let kindSeq = 0;
const uniqueKind = (name: string) => `test.${name}.${++kindSeq}`;

/** These tests' own catalog: ad-hoc kinds (`test.flaky.1`, …) with small numeric payloads. */
type TestJobs = Record<string, Record<string, number>>;

function queue(on: Db = db): JobQueue<TestJobs> {
  return new JobQueue<TestJobs>(on, log, 50);
}

async function jobRow(id: number) {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
  return row;
}

/** Makes a waiting job due now (instead of sleeping through its backoff). */
async function makeDue(id: number) {
  await db.update(jobs).set({ runAt: sql`now() - interval '1 second'` }).where(eq(jobs.id, id));
}

const secondsUntil = (date: Date) => (date.getTime() - Date.now()) / 1000;

describe('job queue', () => {
  it('retries a failing job with its backoff, then completes it', async () => {
    const q = queue();
    const kind = uniqueKind('flaky');
    const seen: number[] = [];
    q.define({
      kind,
      maxAttempts: 5,
      backoffSeconds: (attempt) => attempt * 100,
      handler: async (payload, { attempt }) => {
        seen.push(attempt);
        if (attempt < 3) throw new Error(`failure ${attempt} of ${payload.n}`);
      },
    });
    const id = await db.transaction((tx) => q.enqueue(tx, kind, { n: 7 }));
    expect(await q.runDue()).toBe(1);
    let row = await jobRow(id);
    expect(row).toMatchObject({ attempts: 1, lastError: 'failure 1 of 7', doneAt: null, failedAt: null, lockedAt: null });
    expect(secondsUntil(row.runAt)).toBeGreaterThan(90);
    expect(secondsUntil(row.runAt)).toBeLessThanOrEqual(100);
    expect(await q.runDue()).toBe(0);
    await makeDue(id);
    await q.runDue();
    row = await jobRow(id);
    expect(secondsUntil(row.runAt)).toBeGreaterThan(190);
    await makeDue(id);
    await q.runDue();
    row = await jobRow(id);
    expect(row.doneAt).toBeInstanceOf(Date);
    expect(row.lastError).toBeNull();
    expect(seen).toEqual([1, 2, 3]);
  });

  it('marks a job failed after its maximum attempts and never runs it again', async () => {
    const q = queue();
    const kind = uniqueKind('doomed');
    let runs = 0;
    q.define({
      kind,
      maxAttempts: 2,
      backoffSeconds: () => 1,
      handler: async () => {
        runs += 1;
        throw new Error('always');
      },
    });
    const id = await q.enqueue(db, kind, {});
    await q.runDue();
    await makeDue(id);
    await q.runDue();
    const row = await jobRow(id);
    expect(row.failedAt).toBeInstanceOf(Date);
    expect(row.attempts).toBe(2);
    await makeDue(id);
    expect(await q.runDue()).toBe(0);
    expect(runs).toBe(2);
  });

  it('reschedules without counting a failure when the handler asks to look again later', async () => {
    const q = queue();
    const kind = uniqueKind('poll');
    q.define({ kind, maxAttempts: 1, backoffSeconds: () => 1, handler: async () => ({ retryInSeconds: 600 }) });
    const id = await q.enqueue(db, kind, {});
    for (let i = 0; i < 3; i++) {
      await makeDue(id);
      expect(await q.runDue()).toBe(1);
    }
    const row = await jobRow(id);
    expect(row).toMatchObject({ attempts: 0, doneAt: null, failedAt: null, lockedAt: null });
    expect(secondsUntil(row.runAt)).toBeGreaterThan(590);
  });

  it('fails jobs of an unknown kind instead of retrying them forever', async () => {
    const id = await queue().enqueue(db, uniqueKind('nobody'), {});
    await queue().runDue();
    const row = await jobRow(id);
    expect(row.failedAt).toBeInstanceOf(Date);
    expect(row.lastError).toMatch(/^no handler for test\.nobody/);
  });

  it('picks up a job whose worker died once its lease has run out, not before', async () => {
    const kind = uniqueKind('orphan');
    const q = queue();
    let runs = 0;
    q.define({
      kind,
      maxAttempts: 3,
      backoffSeconds: () => 1,
      handler: async () => {
        runs += 1;
      },
    });
    const fresh = await q.enqueue(db, kind, {});
    const stale = await q.enqueue(db, kind, {});
    // Claimed by a worker that crashed: one 10 s ago (still leased), one 301 s ago (lease over).
    await db.update(jobs).set({ lockedAt: sql`now() - interval '10 seconds'`, lockedBy: 'dead', attempts: 1 }).where(eq(jobs.id, fresh));
    await db.update(jobs).set({ lockedAt: sql`now() - interval '301 seconds'`, lockedBy: 'dead', attempts: 1 }).where(eq(jobs.id, stale));
    expect(await q.runDue()).toBe(1);
    expect(runs).toBe(1);
    expect((await jobRow(stale)).doneAt).toBeInstanceOf(Date);
    expect((await jobRow(fresh)).doneAt).toBeNull();
    // The dead worker's late "done" would not count: finishing requires holding the lock.
    expect((await jobRow(stale)).lockedBy).toBe(q.workerId);
  });

  it('survives a restart: a job written by one queue is run by a new one', async () => {
    const kind = uniqueKind('restart');
    const id = await queue().enqueue(db, kind, { x: 1 });
    const after = queue();
    const payloads: unknown[] = [];
    after.define({
      kind,
      maxAttempts: 3,
      backoffSeconds: () => 1,
      handler: async (payload) => {
        payloads.push(payload);
      },
    });
    await after.runDue();
    expect(payloads).toEqual([{ x: 1 }]);
    expect((await jobRow(id)).doneAt).toBeInstanceOf(Date);
  });

  it('never runs one job twice with two queues on the same database', async () => {
    // On PostgreSQL each queue gets its own connection pool, so the claims really race (SKIP LOCKED).
    const extra: Database[] = [];
    const dbs = testDb.url ? [await openPostgres(testDb.url, 4), await openPostgres(testDb.url, 4)] : [];
    extra.push(...dbs);
    try {
      const queues = testDb.url ? dbs.map((d) => queue(d.db)) : [queue(), queue()];
      const kind = uniqueKind('race');
      const runs = new Map<number, string[]>();
      for (const q of queues) {
        const definition: JobDefinition<string, TestJobs> = {
          kind,
          maxAttempts: 3,
          backoffSeconds: () => 1,
          handler: async (payload) => {
            runs.set(payload.n, [...(runs.get(payload.n) ?? []), q.workerId]);
            await new Promise((resolve) => setTimeout(resolve, 2));
          },
        };
        q.define(definition);
      }
      const total = 60;
      await db.transaction(async (tx) => {
        for (let n = 0; n < total; n++) await queues[0].enqueue(tx, kind, { n });
      });
      const drain = async (q: JobQueue<TestJobs>) => {
        while ((await q.runDue(5)) > 0);
      };
      await Promise.all(queues.flatMap((q) => [drain(q), drain(q)]));
      expect(runs.size).toBe(total);
      for (const [n, workers] of runs) expect(workers, `job ${n}`).toHaveLength(1);
      if (testDb.url) {
        // Both workers took part (the race was real).
        const byWorker = new Set([...runs.values()].flat());
        expect(byWorker.size).toBe(2);
      }
    } finally {
      for (const d of extra) await d.close();
    }
  });

  it('start() polls in the background and stop() waits for the job in progress', async () => {
    const q = queue();
    const kind = uniqueKind('loop');
    let finished = false;
    q.define({
      kind,
      maxAttempts: 1,
      backoffSeconds: () => 1,
      handler: async () => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        finished = true;
      },
    });
    const id = await q.enqueue(db, kind, {});
    q.start();
    for (let i = 0; i < 100 && !(await jobRow(id)).lockedAt; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    await q.stop();
    expect(finished).toBe(true);
    expect((await jobRow(id)).doneAt).toBeInstanceOf(Date);
  });
});

describe('job catalog', () => {
  it('types enqueue and define by kind (checked by tsc: a @ts-expect-error line that compiles fails the typecheck)', () => {
    const misuses = (q: JobQueue, executor: Db) => {
      // @ts-expect-error a kind missing from the catalog
      void q.enqueue(executor, 'wallet.verfy', { reference: 'WT-1' });
      // @ts-expect-error a payload of another kind
      void q.enqueue(executor, 'wallet.verify', { outboxIds: [1] });
      q.define<'wallet.verify'>({
        kind: 'wallet.verify',
        maxAttempts: 1,
        backoffSeconds: () => 1,
        // @ts-expect-error a handler expecting another kind's payload
        handler: async (_: { userId: number }) => {},
      });
      void q.enqueue(executor, 'users.suspension-end', { companyId: 1, userId: 2, endsAt: new Date(0).toISOString() });
    };
    expect(misuses).toBeTypeOf('function');
  });
});
