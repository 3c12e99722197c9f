// The per-company outbound mail quota (platform/mail/outbox.ts): every sender goes through the
// mailer, so the routes that mail a caller-chosen address with caller text (I5 notify_finance,
// invitations) cannot turn the service into a relay. Beyond the quota nothing is refused: the
// message waits in the outbox and its delivery job runs in a later hour.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { createApprovers, createInvoiceViaApi, invoiceBody } from '../helpers/companies-invoices.js';
import { createCompany, createUsers, type TestCompany } from '../helpers/factories.js';
import { as } from '../helpers/http.js';
import { rowsReadBy } from '../helpers/rows-read.js';

const QUOTA = 2;
let ctx: TestContext;
let acme: TestCompany;
let other: TestCompany;

beforeAll(async () => {
  ctx = await createTestApp({ mailPerCompanyPerHour: QUOTA });
  acme = await createCompany(ctx.db);
  other = await createCompany(ctx.db);
});
afterAll(() => ctx.close());

/** Each outbox row of a recipient prefix with its delivery delay in whole hours and its job's delay. */
async function deliveries(prefix: string) {
  return queryRows<{ to: string; wait_hours: number; job_hours: number }>(
    ctx.db,
    sql`SELECT o."to", round(extract(epoch FROM o.deliver_at - o.created_at) / 3600)::int AS wait_hours,
               round(extract(epoch FROM j.run_at - o.created_at) / 3600)::int AS job_hours
        FROM outbox o JOIN jobs j ON j.kind = 'mail.deliver' AND j.payload->'outboxIds' @> to_jsonb(o.id)
        WHERE o."to" LIKE ${`${prefix}%`} ORDER BY o.id`,
  );
}

describe('per-company mail quota', () => {
  it('delivers QUOTA messages an hour per company and holds the rest for later hours; other companies are not held', async () => {
    await ctx.db.transaction(async (tx) => {
      await ctx.app.deps.mailer.sendMany(
        tx,
        [1, 2, 3, 4, 5].map((n) => ({ companyId: acme.id, to: `q1-${n}@x.test`, subject: `m${n}`, text: 'caller text' })),
      );
    });
    await ctx.app.deps.mailer.send(ctx.db, { companyId: other.id, to: 'q1-other@x.test', subject: 'o', text: 't' });
    expect(await deliveries('q1-')).toEqual([
      { to: 'q1-1@x.test', wait_hours: 0, job_hours: 0 },
      { to: 'q1-2@x.test', wait_hours: 0, job_hours: 0 },
      { to: 'q1-3@x.test', wait_hours: 1, job_hours: 1 },
      { to: 'q1-4@x.test', wait_hours: 1, job_hours: 1 },
      { to: 'q1-5@x.test', wait_hours: 2, job_hours: 2 },
      { to: 'q1-other@x.test', wait_hours: 0, job_hours: 0 },
    ]);
    // Later messages queue behind the backlog, not in front of it: m6 fills hour 2, m7 opens hour 3.
    await ctx.app.deps.mailer.send(ctx.db, { companyId: acme.id, to: 'q1-6@x.test', subject: 'm6', text: 't' });
    await ctx.app.deps.mailer.send(ctx.db, { companyId: acme.id, to: 'q1-7@x.test', subject: 'm7', text: 't' });
    expect((await deliveries('q1-')).slice(-2).map((row) => row.wait_hours)).toEqual([2, 3]);
  });

  it('I5 notify_finance and invitations go through the quota (the route answers as usual)', async () => {
    const company = await createCompany(ctx.db);
    const [employee] = await createUsers(ctx.db, company.id, [{}]);
    await createApprovers(ctx.db, company.id, ['boss@quota.test', 'q2-finance@quota.test']);
    for (let i = 0; i < QUOTA + 1; i++) {
      const invoice = await createInvoiceViaApi(ctx.app, company, invoiceBody(employee.email));
      const res = await as(ctx.app, company).put(`/api/invoices/${invoice.transaction_id}/approve`, {
        manager_email: 'boss@quota.test',
        decision: 'approve',
        notify_finance: true,
        finance_approver_email: 'q2-finance@quota.test',
      });
      expect(res.statusCode).toBe(200);
    }
    const invited = await as(ctx.app, company).post('/api/users', {
      first_name: 'Ada',
      last_name: 'Obi',
      personal_email: 'q2-invitee@personal.test',
      domain_name: company.domain,
      user_types: 'Full-time',
      start_date: '2024-01-15',
      notify: true,
    });
    expect(invited.statusCode, invited.body).toBe(200);
    expect((await deliveries('q2-')).map((row) => row.wait_hours)).toEqual([0, 0, 1, 1]);
  });

  it('counts the messages of the last hour, not those delivered before it', async () => {
    const company = await createCompany(ctx.db);
    const mail = (n: number) => ({ companyId: company.id, to: `q3-${n}@x.test`, subject: `m${n}`, text: 't' });
    await ctx.app.deps.mailer.sendMany(ctx.db, [1, 2, 3, 4, 5].map(mail));
    // Two and a half hours later: m1-m4 (due now and in an hour) have left the window; m5, due
    // half an hour ago, is still in it, so one slot of this hour is taken.
    await ctx.db.execute(
      sql`UPDATE outbox SET deliver_at = deliver_at - interval '150 minutes', created_at = created_at - interval '150 minutes'
          WHERE company_id = ${company.id}`,
    );
    await ctx.app.deps.mailer.sendMany(ctx.db, [6, 7, 8].map(mail));
    const waits = await queryRows<{ minutes: number }>(
      ctx.db,
      sql`SELECT round(extract(epoch FROM deliver_at - now()) / 60)::int AS minutes FROM outbox WHERE "to" LIKE 'q3-%' ORDER BY id`,
    );
    expect(waits.map((row) => row.minutes)).toEqual([-150, -150, -90, -90, -30, 0, 60, 60]);
  });

  it("reads two of the company's messages whatever its backlog, not the backlog", async () => {
    const company = await createCompany(ctx.db);
    const backlog = Array.from({ length: 2_000 }, (_, n) => ({ companyId: company.id, to: `q4-${n}@x.test`, subject: 'b', text: 't' }));
    await ctx.app.deps.mailer.sendMany(ctx.db, backlog);
    const { result, rows } = await rowsReadBy(ctx.db, 'outbox', async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const id = await ctx.app.deps.mailer.send(tx, { companyId: company.id, to: 'q4-last@x.test', subject: 'l', text: 't' });
      return queryRows<{ hours: number }>(
        tx,
        sql`SELECT round(extract(epoch FROM deliver_at - now()) / 3600)::int AS hours FROM outbox WHERE id = ${id}`,
      );
    });
    // Behind the 2,000 waiting, at 2 an hour: hour 1,000. The company's last message and its first
    // due, then the check's own read of the new one: 3. Counting them read all 2,000.
    expect(result).toEqual([{ hours: 1_000 }]);
    expect(rows).toBeLessThanOrEqual(3);
  });

  it('numbers on from the last numbered message, leaving out messages written without a number', async () => {
    const company = await createCompany(ctx.db);
    const mail = (n: number) => ({ companyId: company.id, to: `q5-${n}@x.test`, subject: `m${n}`, text: 't' });
    await ctx.app.deps.mailer.sendMany(ctx.db, [1, 2, 3].map(mail));
    // As an instance still running the code before migration 0270 writes it: no number, due later.
    await ctx.db.execute(
      sql`INSERT INTO outbox (company_id, "to", subject, text, deliver_at) VALUES (${company.id}, 'q5-old@x.test', 'o', 't', now() + interval '5 hours')`,
    );
    await ctx.app.deps.mailer.send(ctx.db, mail(4));
    const rows = await queryRows<{ to: string; seq: number | null; hours: number }>(
      ctx.db,
      sql`SELECT "to", company_seq::int AS seq, round(extract(epoch FROM deliver_at - now()) / 3600)::int AS hours
          FROM outbox WHERE "to" LIKE 'q5-%' ORDER BY id`,
    );
    // m4 is the fourth numbered message, in slot 3: hour 1. Taking the unnumbered one as the last
    // would have numbered it 1 and counted nothing before it.
    expect(rows.map((row) => [row.to, row.seq, row.hours])).toEqual([
      ['q5-1@x.test', 1, 0],
      ['q5-2@x.test', 2, 0],
      ['q5-3@x.test', 3, 1],
      ['q5-old@x.test', null, 5],
      ['q5-4@x.test', 4, 1],
    ]);
  });
});
