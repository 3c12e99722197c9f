// The e-mail outbox (docs/decisions.md, "Jobs and mail"): mail delivered to a real SMTP server
// (smtp-server) started here, including refusals and retries. The job queue itself is in
// jobs.test.ts.
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.js';
import { jobs, outbox } from '../../src/db/schema/index.js';
import { JobQueue } from '../../src/platform/jobs/queue.js';
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

async function jobRow(id: number) {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
  return row;
}

/** Makes a waiting job due now (instead of sleeping through its backoff). */
async function makeDue(id: number) {
  await db.update(jobs).set({ runAt: sql`now() - interval '1 second'` }).where(eq(jobs.id, id));
}

const secondsUntil = (date: Date) => (date.getTime() - Date.now()) / 1000;

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
    const q = new JobQueue(db, log, 50); // the app's catalog: mail.deliver
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
