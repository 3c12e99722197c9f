// Pay schedules' exactly-once (docs/payroll-runs.md, "Pay schedules"): two compiled servers on one
// PostgreSQL database work the pay-schedules.due job together over many companies' due schedules;
// one is killed with SIGKILL while runs are being created, every claim is then expired (as when
// the lease runs out, so the survivor takes over the dead one's batch at once) and the killed one
// restarts. Every schedule ends with exactly one run for its period, one period record, one e-mail
// to its administrator and a cursor on the next period. PostgreSQL only: two processes cannot share
// an embedded database.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { queryRows, sql } from '../../src/db/client.js';
import { firstOpenPeriod, lagosDay } from '../../src/modules/pay-schedules/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { createCompany, createUsers, type TestCompany } from '../helpers/factories.js';
import { TEST_WEBHOOK_SECRET_KEY } from '../helpers/test-keys.js';
import { processEnv, START_MS } from './run-fixture.js';
import { killAll, requestJson, type ServerProcess, startServerProcess } from './server-process.js';

const COMPANIES = 40;
const STAFF = 25;

afterAll(killAll);

describe.skipIf(!process.env.DATABASE_URL)('pay schedules: two instances, kill -9 mid-creation (needs DATABASE_URL)', () => {
  let testDb: TestDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  let env: Record<string, string>;
  const companies: { company: TestCompany; admin: string; scheduleId: number }[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase();
    const db = testDb.database.db;
    env = {
      ...processEnv(`adm_${crypto.randomBytes(16).toString('hex')}`),
      DATABASE_URL: testDb.url as string,
      PAYMENT_PROVIDER: 'sandbox',
      WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY,
      JOB_POLL_MS: '25',
    };
    [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    await Promise.all([a.waitReady({ timeoutMs: START_MS }), b.waitReady({ timeoutMs: START_MS })]);
    // Schedules made far ahead, so nothing is due while the companies are set up.
    for (let i = 0; i < COMPANIES; i++) {
      const company = await createCompany(db, { name: `Schedule Crash ${i}` });
      const [admin] = await createUsers(db, company.id, [{ firstName: 'Admin', lastName: `N${i}`, roles: ['admin'] }]);
      await createUsers(
        db,
        company.id,
        Array.from({ length: STAFF }, () => ({ baseSalary: '180000.00' })),
      );
      const res = await requestJson(
        a.baseUrl,
        'POST',
        '/api/pay-schedules',
        { name: 'Monthly', frequency: 'monthly', pay_day: 'last_working_day', first_period_start: '2030-01-01' },
        company.auth,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      companies.push({ company, admin: admin.email, scheduleId: res.body.pay_schedule.id });
    }
  }, START_MS + 240_000);

  afterAll(async () => {
    await killAll();
    await testDb?.close();
  });

  test('every period run is created exactly once', async () => {
    const db = testDb.database.db;
    const period = firstOpenPeriod(
      { frequency: 'monthly', payDay: 'last_working_day', firstPeriodStart: '2026-01-01', createDaysBefore: 0 },
      lagosDay(new Date()),
      null,
    );
    // Every schedule due at once: both instances' job loops claim batches of them.
    await db.execute(
      sql`UPDATE pay_schedules SET first_period_start = '2026-01-01', next_period_start = ${period.start},
            next_creation_at = now() - interval '1 minute'`,
    );
    // The job's recurring rows come round once a minute; bring the next turn forward, as if that
    // minute had passed (what is under test is exactly-once across the kill, not the cadence).
    await db.execute(sql`UPDATE jobs SET run_at = now() WHERE kind = 'pay-schedules.due' AND done_at IS NULL AND failed_at IS NULL`);
    const created = async () => {
      const [row] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM payroll_runs WHERE schedule_id IS NOT NULL`);
      return row.n;
    };
    const deadline = Date.now() + 60_000;
    while ((await created()) < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const killedPid = a.child.pid;
    a.child.kill('SIGKILL');
    await a.waitExit(10_000);
    const atKill = await created();
    expect(atKill).toBeLessThan(COMPANIES);
    // The dead instance's leases, run out: its schedule claims, and its claims of the job queue's
    // pay-schedules.due slots (worker ids start with the pid), which would otherwise hold the slots
    // it had for the job lease (docs/payroll-runs.md, "Pay schedules").
    await db.execute(sql`UPDATE pay_schedules SET claimed_until = NULL`);
    await db.execute(
      sql`UPDATE jobs SET locked_at = NULL, locked_by = NULL WHERE locked_by LIKE ${`${killedPid}-%`} AND done_at IS NULL AND failed_at IS NULL`,
    );
    a = await startServerProcess(env, a.port);
    await a.waitReady({ timeoutMs: START_MS });
    await db.execute(sql`UPDATE jobs SET run_at = now() WHERE kind = 'pay-schedules.due' AND done_at IS NULL AND failed_at IS NULL`);

    const done = Date.now() + 120_000;
    while ((await created()) < COMPANIES && Date.now() < done) await new Promise((resolve) => setTimeout(resolve, 200));
    // A little longer: a double would show up now.
    await new Promise((resolve) => setTimeout(resolve, 1500));

    const runs = await queryRows<{ schedule_id: number; pay_period_start: string; n: number }>(
      db,
      sql`SELECT schedule_id, pay_period_start::text AS pay_period_start, count(*)::int AS n FROM payroll_runs
          WHERE schedule_id IS NOT NULL GROUP BY 1, 2 ORDER BY 1`,
    );
    expect(runs).toHaveLength(COMPANIES);
    for (const run of runs) expect(run).toMatchObject({ pay_period_start: period.start, n: 1 });
    const periods = await queryRows<{ n: number; linked: number }>(
      db,
      sql`SELECT count(*)::int AS n, count(run_id)::int AS linked FROM pay_schedule_periods`,
    );
    expect(periods).toEqual([{ n: COMPANIES, linked: COMPANIES }]);
    const paystubs = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM paystubs p JOIN payroll_runs r ON r.id = p.transaction_id WHERE r.schedule_id IS NOT NULL`,
    );
    expect(paystubs).toEqual([{ n: COMPANIES * (STAFF + 1) }]);
    const mails = await queryRows<{ to: string; n: number }>(
      db,
      sql`SELECT "to", count(*)::int AS n FROM outbox WHERE subject LIKE 'Draft payroll run ready%' GROUP BY 1`,
    );
    expect(mails).toHaveLength(COMPANIES);
    for (const mail of mails) expect(mail.n).toBe(1);
    const cursors = await queryRows<{ next: string; claimed: number }>(
      db,
      sql`SELECT DISTINCT next_period_start::text AS next, count(claimed_until)::int AS claimed FROM pay_schedules GROUP BY 1`,
    );
    expect(cursors).toEqual([{ next: cursors[0].next, claimed: 0 }]);
    expect(cursors[0].next > period.start).toBe(true);
  }, 300_000);
});
