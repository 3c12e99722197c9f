// A U9 bank change (the CSV bulk update of many users) racing `pay` or `cancel` of the same run,
// on PostgreSQL (PGlite has one connection: transactions cannot interleave there). The bank change
// holds the run's unpaid paystubs (0186's trigger) while pay claims them and cancel cancels them;
// each used to lock the paystub rows in its own order (the users the UPDATE visits, the run's
// paystubs as the scan returns them), so the two could wait for each other until PostgreSQL
// aborted one ("deadlock detected"). Both now lock the paystubs by id first (docs/payroll-runs.md,
// "Lock order"). Every round, in both orders of the CSV, both requests succeed, each paystub is
// either claimed (pay) or cancelled or held, and the run's counters equal its paystubs.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { fundWallet, runBody, runCountDrift, setBankAccounts } from '../../../../test/helpers/payroll-runs.js';
import { multipart, usersCsv } from '../../../../test/helpers/users.js';
import { queryRows } from '../../../db/client.js';
import { nubanFor } from '../../banks/index.js';

const EMPLOYEES = 150;
const NEEDS_APPROVAL = 'These paystubs need approval of their new bank account first.';
const ROUNDS = 8; // per action: each order of the CSV, each side first

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx?.close());

let serial = 1_000_000;
const account = () => nubanFor('044', `04${String(serial++).padStart(7, '0')}`);

/** A period of its own per round (a paid run keeps its employees' period: "One salary per period"). */
let month = 0;
function nextPeriod() {
  const start = new Date(Date.UTC(2027, month++, 1));
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0));
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return { pay_period_start: day(start), pay_period_end: day(end), payment_date: day(end) };
}

async function approvedRun(c: TestCompany, approverEmail: string): Promise<string> {
  const created = await as(ctx.app, c).post('/api/payroll-runs', runBody(nextPeriod()));
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().run.id as string;
  const approved = await as(ctx.app, c).post(`/api/payroll-runs/${id}/approve`, { approver_email: approverEmail });
  expect(approved.statusCode, approved.body).toBe(200);
  return id;
}

/** U9: every employee moves to a new account, the CSV listing them in `order` of their ids. */
function bulkBankChange(c: TestCompany, staff: { id: number; email: string }[], order: 'ascending' | 'descending') {
  const rows = [...staff].sort((a, b) => (order === 'ascending' ? a.id - b.id : b.id - a.id));
  const csv = usersCsv(
    rows.map((u) => ({ email: u.email, bank_name: 'Access Bank', account_number: account() })),
    { update: true },
  );
  const form = multipart({}, [{ field: 'users_csv', filename: 'users.csv', contentType: 'text/csv', data: csv }]);
  return as(ctx.app, c).post('/api/users/bulk-update', form.payload, { headers: form.headers });
}

const statuses = async (runId: string) =>
  (
    await queryRows<{ status: string; n: number }>(
      ctx.db,
      sql`SELECT status, count(*)::int AS n FROM paystubs WHERE transaction_id = ${runId} GROUP BY status ORDER BY status`,
    )
  ).reduce<Record<string, number>>((all, row) => Object.assign(all, { [row.status]: row.n }), {});

/** Backends of this database waiting for a lock. */
const waiting = async () =>
  (
    await queryRows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    )
  )[0].n;

async function until(condition: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Makes the two requests overlap in the middle of the run, whatever their timing: a third
 * connection holds the run's middle paystub (by id) FOR SHARE; the bank change starts and waits
 * there, then the run's action starts and waits too (for that paystub or for one the bank change
 * holds); then the gate opens. Unfixed, each side had locked half of the run from its own end.
 */
async function gated<A, B>(runId: string, first: () => Promise<A>, second: () => Promise<B>): Promise<[A, B]> {
  const [middle] = await queryRows<{ id: number }>(
    ctx.db,
    sql`SELECT id FROM paystubs WHERE transaction_id = ${runId} ORDER BY id OFFSET ${Math.floor(EMPLOYEES / 2)} LIMIT 1`,
  );
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let locked = () => {};
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const gate = ctx.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT id FROM paystubs WHERE id = ${middle.id} FOR SHARE`);
    locked();
    await opened;
  });
  await Promise.race([isLocked, gate]);
  try {
    const before = await waiting();
    const a = first();
    await until(async () => (await waiting()) > before, 'the bank change waits');
    const b = second();
    await until(async () => (await waiting()) > before + 1, 'the run’s action waits');
    open();
    await gate;
    return await Promise.all([a, b]);
  } finally {
    open();
  }
}

describe.skipIf(!process.env.DATABASE_URL)('on PostgreSQL: a U9 bank change racing pay or cancel of the same run', () => {
  let c: TestCompany;
  let boss: { email: string };
  let staff: { id: number; email: string }[];

  beforeAll(async () => {
    c = await createCompany(ctx.db, { runApproval: 'token' });
    [boss] = await createUsers(ctx.db, c.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
    staff = await createUsers(
      ctx.db,
      c.id,
      Array.from({ length: EMPLOYEES }, () => ({ baseSalary: '80000.00' })),
    );
    for (const u of staff) await setBankAccounts(ctx.db, [u.id], account());
    await fundWallet(ctx.app, ctx.db, c, EMPLOYEES * 80_000 * ROUNDS); // at most 100,000,000 a top-up
  });

  for (const action of ['pay', 'cancel'] as const) {
    it(`${action}: ${ROUNDS} rounds of ${EMPLOYEES} employees, no deadlock, each paystub moved by one of the two`, async () => {
      const failures: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const runId = await approvedRun(c, boss.email);
        // Each order of the CSV, each side first at the gate.
        const order = round % 2 === 0 ? 'ascending' : 'descending';
        const bankChange = () => bulkBankChange(c, staff, order);
        const runAction = () => as(ctx.app, c).post(`/api/payroll-runs/${runId}/${action}`);
        const [bulk, run] =
          round % 4 < 2
            ? await gated(runId, bankChange, runAction)
            : await gated(runId, runAction, bankChange).then(([a, b]) => [b, a] as const);
        // A bank change that held every paystub first leaves pay nothing to send: the documented 409.
        const allHeld = action === 'pay' && run.statusCode === 409 && run.json().error === NEEDS_APPROVAL;
        const expected = action === 'pay' ? 202 : 200;
        if (run.statusCode !== expected && !allHeld) failures.push(`round ${round}: ${action} ${run.statusCode} ${run.body.slice(0, 200)}`);
        if (bulk.statusCode !== 200 || bulk.json().status !== 'success')
          failures.push(`round ${round}: bulk update ${bulk.statusCode} ${bulk.body.slice(0, 200)}`);
        const counted = await statuses(runId);
        // pay: each paystub claimed (sent to the account pinned at approval) or held (waits for approval
        // of the new one), never both; cancel: cancelled first (nothing left to hold) or held first
        // (cancel cancels held paystubs too).
        const moved = action === 'pay' ? (counted.processing ?? 0) + (counted.held ?? 0) : (counted.cancelled ?? 0);
        if (moved !== EMPLOYEES) failures.push(`round ${round}: paystubs ${JSON.stringify(counted)}`);
      }
      expect(failures).toEqual([]);
      expect(await runCountDrift(ctx.db)).toEqual([]);
    });
  }
});
