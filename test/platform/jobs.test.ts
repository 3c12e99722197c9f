// Durable jobs and the e-mail outbox (decisions.md §8) on a real database: backoff, attempts,
// `retryInSeconds`, lease expiry after a crash, two queues never running one job twice, and mail
// delivered to a real SMTP server (smtp-server) started here, including refusals and retries.
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type Db, openPostgres } from '../../src/db/client.js';
import { jobs, outbox } from '../../src/db/schema/index.js';
import { type JobDefinition, JobQueue } from '../../src/platform/jobs/queue.js';
import { createMailer, mailDeliveryJob } from '../../src/platform/mail/outbox.js';
import { testConfig } from '../helpers/app.js';
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

function queue(on: Db = db): JobQueue {
  return new JobQueue(on, log, 50);
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
    q.define<{ n: number }>({
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
        const definition: JobDefinition<{ n: number }> = {
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
      const drain = async (q: JobQueue) => {
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

describe('outbox delivery over SMTP', () => {
  let server: SMTPServer;
  let port: number;
  const received: { to: string[]; raw: string }[] = [];
  let refuse = false;
  const queues: JobQueue[] = [];

  beforeAll(async () => {
    server = new SMTPServer({
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (refuse || address.address.startsWith('refused.'))
          return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    // Stopping the queues closes their SMTP pools; the server then has no connection to wait for.
    for (const q of queues) await q.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  function mailQueue(smtpUrl: string | undefined) {
    const q = queue();
    queues.push(q);
    q.define(mailDeliveryJob(testConfig({ smtpUrl, mailFrom: 'Payroll <no-reply@payroll.test>' })));
    return { q, mailer: createMailer() };
  }

  async function outboxRow(id: number) {
    const [row] = await db.select().from(outbox).where(eq(outbox.id, id));
    return row;
  }

  it('delivers an e-mail written in a transaction and marks it sent', async () => {
    const { q, mailer } = mailQueue(`smtp://127.0.0.1:${port}`);
    const id = await db.transaction((tx) => mailer.send(tx, { to: 'ada@example.test', subject: 'Welcome to Acme', text: 'Hello Ada' }));
    await q.runDue();
    const mail = received.find((m) => m.to.includes('ada@example.test'));
    expect(mail?.raw).toContain('Subject: Welcome to Acme');
    expect(mail?.raw).toContain('Hello Ada');
    expect(mail?.raw).toContain('no-reply@payroll.test');
    const row = await outboxRow(id);
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(row.attempts).toBe(1);
  });

  it('writes nothing when the causing transaction rolls back', async () => {
    const { mailer } = mailQueue(`smtp://127.0.0.1:${port}`);
    const before = await db.select({ id: outbox.id }).from(outbox);
    await expect(
      db.transaction(async (tx) => {
        await mailer.send(tx, { to: 'ghost@example.test', subject: 'Never', text: 'x' });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await db.select({ id: outbox.id }).from(outbox)).toHaveLength(before.length);
  });

  it('retries with backoff when the SMTP server refuses, then delivers', async () => {
    const { q, mailer } = mailQueue(`smtp://127.0.0.1:${port}`);
    const id = await db.transaction((tx) => mailer.send(tx, { to: 'bola@example.test', subject: 'Payslip', text: 'Your payslip' }));
    const [job] = await db
      .select()
      .from(jobs)
      .where(sql`payload->'outboxIds' @> ${JSON.stringify([id])}::jsonb`);
    refuse = true;
    await q.runDue();
    let row = await outboxRow(id);
    expect(row.sentAt).toBeNull();
    expect(row.lastError).toMatch(/Mailbox unavailable|550/);
    const waiting = await jobRow(job.id);
    expect(waiting).toMatchObject({ attempts: 1, doneAt: null, failedAt: null });
    expect(secondsUntil(waiting.runAt)).toBeGreaterThan(20);
    refuse = false;
    await makeDue(job.id);
    await q.runDue();
    row = await outboxRow(id);
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(row.attempts).toBe(2);
    expect(received.filter((m) => m.to.includes('bola@example.test'))).toHaveLength(1);
  });

  it('queues one job per 100 messages of a batch and delivers each message exactly once', async () => {
    const { q, mailer } = mailQueue(`smtp://127.0.0.1:${port}`);
    const messages = Array.from({ length: 230 }, (_, i) => ({ to: `batch${i}@example.test`, subject: `Invite ${i}`, text: 'Join us' }));
    const ids = await db.transaction((tx) => mailer.sendMany(tx, messages));
    expect(ids).toHaveLength(230);
    const queued = await db
      .select()
      .from(jobs)
      .where(
        sql`payload->'outboxIds' @> ${JSON.stringify([ids[0]])}::jsonb OR payload->'outboxIds' @> ${JSON.stringify([ids[229]])}::jsonb OR payload->'outboxIds' @> ${JSON.stringify([ids[150]])}::jsonb`,
      )
      .orderBy(jobs.id);
    expect(queued.map((job) => (job.payload as { outboxIds: number[] }).outboxIds.length)).toEqual([100, 100, 30]);
    expect(queued.flatMap((job) => (job.payload as { outboxIds: number[] }).outboxIds)).toEqual(ids);
    // The ids come back in message order: the caller can pair them.
    for (const [i, id] of [0, 117, 229].map((i) => [i, ids[i]])) expect((await outboxRow(id)).to).toBe(`batch${i}@example.test`);
    while ((await q.runDue()) > 0);
    for (let i = 0; i < 230; i++) expect(received.filter((m) => m.to.includes(`batch${i}@example.test`))).toHaveLength(1);
    expect((await jobRow(queued[2].id)).doneAt).toBeInstanceOf(Date);
  });

  it('does not let a refused message hold back its batch; the retry sends only that one', async () => {
    const { q, mailer } = mailQueue(`smtp://127.0.0.1:${port}`);
    const ids = await db.transaction((tx) =>
      mailer.sendMany(tx, [
        { to: 'first.ok@example.test', subject: 'A', text: 'a' },
        { to: 'refused.once@example.test', subject: 'B', text: 'b' },
        { to: 'last.ok@example.test', subject: 'C', text: 'c' },
      ]),
    );
    const [job] = await db
      .select()
      .from(jobs)
      .where(sql`payload->'outboxIds' @> ${JSON.stringify([ids[1]])}::jsonb`);
    await q.runDue();
    expect((await outboxRow(ids[0])).sentAt).toBeInstanceOf(Date);
    expect((await outboxRow(ids[2])).sentAt).toBeInstanceOf(Date);
    expect(await outboxRow(ids[1])).toMatchObject({ sentAt: null, attempts: 1 });
    expect((await outboxRow(ids[1])).lastError).toMatch(/Mailbox unavailable|550/);
    const waiting = await jobRow(job.id);
    expect(waiting).toMatchObject({ attempts: 1, doneAt: null, failedAt: null });
    expect(waiting.lastError).toMatch(/^1 of 3 e-mails not delivered/);

    // The address is fixed on the mail server side; the retry sends the one left, and only it.
    await db.update(outbox).set({ to: 'fixed.once@example.test' }).where(eq(outbox.id, ids[1]));
    await makeDue(job.id);
    await q.runDue();
    expect(await outboxRow(ids[1])).toMatchObject({ attempts: 2, lastError: null });
    expect((await jobRow(job.id)).doneAt).toBeInstanceOf(Date);
    for (const to of ['first.ok@', 'last.ok@', 'fixed.once@'])
      expect(received.filter((m) => m.to.some((r) => r.startsWith(to)))).toHaveLength(1);
  });

  it('still delivers a job queued before batching (payload { outboxId })', async () => {
    const { q } = mailQueue(`smtp://127.0.0.1:${port}`);
    const [row] = await db.insert(outbox).values({ to: 'legacy@example.test', subject: 'Old job', text: 'x' }).returning();
    await db
      .insert(jobs)
      .values({ kind: 'mail.deliver', payload: { outboxId: row.id }, runAt: new Date(Date.now() - 1000), maxAttempts: 12 });
    await q.runDue();
    expect((await outboxRow(row.id)).sentAt).toBeInstanceOf(Date);
    expect(received.filter((m) => m.to.includes('legacy@example.test'))).toHaveLength(1);
  });

  it('retries when no SMTP server listens at all', async () => {
    const { q, mailer } = mailQueue('smtp://127.0.0.1:1');
    const id = await db.transaction((tx) => mailer.send(tx, { to: 'chidi@example.test', subject: 'S', text: 'T' }));
    await q.runDue();
    const row = await outboxRow(id);
    expect(row.sentAt).toBeNull();
    expect(row.lastError).toBeTruthy();
  });

  it('keeps the e-mail in the outbox when SMTP is not configured', async () => {
    const { q, mailer } = mailQueue(undefined);
    const id = await db.transaction((tx) => mailer.send(tx, { to: 'dayo@example.test', subject: 'Kept', text: 'Here' }));
    const count = received.length;
    await q.runDue();
    expect(received).toHaveLength(count);
    const row = await outboxRow(id);
    expect(row).toMatchObject({ sentAt: null, subject: 'Kept' });
  });
});
