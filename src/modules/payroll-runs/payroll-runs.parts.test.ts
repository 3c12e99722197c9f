// A run created a part of the employees at a time (paystubs' planAndWriteRunInParts) is the same run
// as one planned at once: the same paystubs, item lines, custom contribution records and one-time
// applications, the same totals and the same failures, whatever the part size. The company has what
// ties one paystub's plan to others (docs/payroll.md): cumulative tax with a year to date, loans
// whose repayments plan the paystub again, a one-time contribution, a leaver paid pro rata, and an
// employee already paid for the period (a failure in the middle of the run).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { paystubItem, postPaystubs } from '../../../test/helpers/payroll.js';
import { queryRows, type Tx } from '../../db/client.js';
import { loanRepayments } from '../loans/index.js';
import { newTransactionId, planAndWriteRunInParts } from '../paystubs/index.js';
import { planRunItems } from './payroll-runs.planner.js';
import { payrollRunsRepo } from './payroll-runs.repo.js';

let ctx: TestContext;
let acme: TestCompany;
let people: { id: number; personalEmail: string }[];
const MARCH = { start: '2026-03-01', end: '2026-03-31' };

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db, { name: 'Parts Ltd' });
  const salaries = ['250000.00', '410000.00', '180000.00', '900000.00', '320000.00', '275000.00', '1200000.00'];
  people = await createUsers(
    ctx.db,
    acme.id,
    salaries.map((baseSalary) => ({ baseSalary })),
  );
  const api = as(ctx.app, acme);
  expect((await api.patch(`/api/contribution-settings/${acme.id}`, { tax_method: 'cumulative' })).statusCode).toBe(200);
  // A year to date: January and February paid for everyone but the last.
  for (const month of [
    { pay_period_start: '2026-01-01', pay_period_end: '2026-01-31' },
    { pay_period_start: '2026-02-01', pay_period_end: '2026-02-28' },
  ]) {
    const paid = await postPaystubs(ctx.app, acme, { paystubs: people.slice(0, 6).map((p) => paystubItem(p.id, month)) });
    expect(paid.statusCode, paid.body).toBe(201);
  }
  // The fourth already has a March paystub: the run fails it, between employees it pays.
  const march = await postPaystubs(ctx.app, acme, {
    paystubs: [paystubItem(people[3].id, { pay_period_start: MARCH.start, pay_period_end: MARCH.end })],
  });
  expect(march.statusCode, march.body).toBe(201);
  const custom = await api.post(`/api/custom-contributions/${acme.id}`, {
    name: 'Sign-on kit',
    type: 'amount',
    apply_to: 'gross_pay',
    responsibility: 'employee',
    employee_value: 2500,
    frequency: 'one_time',
    users: [people[1].personalEmail, people[4].personalEmail],
  });
  expect(custom.statusCode, custom.body).toBe(201);
  for (const who of [people[1], people[2], people[5]]) {
    const loan = await api.post(`/api/users/${who.id}/loans`, {
      kind: 'loan',
      principal: '300000.00',
      instalment: '40000',
      start_period: '2026-03',
    });
    expect(loan.statusCode, loan.body).toBe(201);
  }
  // The sixth leaves on 15 March: paid half a month.
  await ctx.db.execute(sql`UPDATE users SET exit_date = '2026-03-15', exit_reason = 'resignation' WHERE id = ${people[5].id}`);
}, 120_000);
afterAll(() => ctx?.close());

class RolledBack extends Error {}

/** What the run wrote, without the ids and times that differ between two creations of it. */
async function written(tx: Tx, runId: string) {
  const of = sql`FROM paystubs p WHERE p.transaction_id = ${runId}`;
  return {
    paystubs: await queryRows(
      tx,
      sql`SELECT to_jsonb(p) - 'id' - 'transaction_id' - 'created_at' - 'updated_at' AS row ${of} ORDER BY p.id`,
    ),
    items: await queryRows<{ user_id: number; row: { loan_id: number | null } }>(
      tx,
      sql`SELECT p.user_id, to_jsonb(i) - 'id' - 'paystub_id' - 'created_at' AS row
          FROM paystub_items i JOIN paystubs p ON p.id = i.paystub_id WHERE p.transaction_id = ${runId} ORDER BY p.id, i.position`,
    ),
    records: await queryRows(
      tx,
      sql`SELECT p.user_id, r.custom_contribution_id, r.name, r.employee_contribution::text, r.employer_contribution::text
          FROM custom_contribution_records r JOIN paystubs p ON p.id = r.contribution_id
          WHERE p.transaction_id = ${runId} ORDER BY p.id, r.id`,
    ),
    applied: await queryRows(
      tx,
      sql`SELECT p.user_id, a.custom_contribution_id FROM custom_contribution_applications a JOIN paystubs p ON p.id = a.paystub_id
          WHERE p.transaction_id = ${runId} ORDER BY p.id, a.custom_contribution_id`,
    ),
  };
}

/** March's run for everyone planned `partEmployees` at a time, read back, then rolled back. */
async function runInParts(partEmployees: number) {
  let outcome: unknown;
  await ctx.db
    .transaction(async (tx) => {
      const runId = newTransactionId();
      const candidates = await payrollRunsRepo.candidates(tx, acme.id);
      const { items } = planRunItems({ ...MARCH, overrides: new Map() }, candidates);
      const { totals, failed } = await planAndWriteRunInParts(tx, acme.id, runId, items, loanRepayments(acme.id), partEmployees);
      outcome = { totals, failed, ...(await written(tx, runId)) };
      throw new RolledBack();
    })
    .catch((error) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return outcome as { totals: { employees: number }; failed: unknown[] } & Awaited<ReturnType<typeof written>>;
}

describe('a run planned a part of the employees at a time', () => {
  it('writes the same run as one part, whatever the part size', async () => {
    const whole = await runInParts(1_000);
    // The company exercises what it should: 6 paid, 1 failed, loans repaid, the one-time kit applied.
    expect(whole.totals.employees).toBe(6);
    expect(whole.failed).toHaveLength(1);
    expect(whole.items.filter((i) => i.row.loan_id !== null)).toHaveLength(3);
    expect(whole.applied).toHaveLength(2);
    for (const size of [1, 2, 3]) expect(await runInParts(size), `${size} at a time`).toEqual(whole);
  });
});
