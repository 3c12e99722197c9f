// Leavers and regular runs through HTTP (docs/users.md, "Leavers"; docs/payroll-runs.md): the run
// whose period covers the exit date pays salary and allowances pro rata up to and including it,
// later runs leave the leaver out (and list them when asked for by id), and once that last
// paystub is paid the exit can no longer be undone.
import { sql } from 'drizzle-orm';
import { createUsers } from '../../../test/helpers/factories.js';
import { describe, expect, test as shared } from '../../../test/helpers/fixtures.js';
import { drainJobs, fundWallet, runBody, runCountDrift, setBankAccounts } from '../../../test/helpers/payroll-runs.js';
import { type Executor, queryRows } from '../../db/client.js';

const test = shared.extend('appConfig', { scope: 'file' }, { sandboxTransferDelaySeconds: 0 });

let boss: { id: number; email: string };
let leaver: { id: number };
let joinerLeaver: { id: number };
let stayer: { id: number };

// The fixture company's token approves (run_approval: token), as a platform with its own maker-checker would.
test.beforeAll(async ({ ctx, company }) => {
  [boss] = await createUsers(ctx.db, company.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
  [leaver, joinerLeaver, stayer] = await createUsers(ctx.db, company.id, [
    { baseSalary: '310000.00' },
    { baseSalary: '310000.00' },
    { baseSalary: '310000.00' },
  ]);
  await ctx.db.execute(sql`UPDATE users SET allowances = 62000.00 WHERE id = ${leaver.id}`);
  // Joined on 10 March 2026: a joiner who also leaves inside the period gets both cuts.
  await ctx.db.execute(sql`UPDATE users SET start_date = '2026-03-10' WHERE id = ${joinerLeaver.id}`);
  await setBankAccounts(ctx.db, [leaver.id, joinerLeaver.id, stayer.id]);
}, 180_000);

const stubs = (db: Executor, runId: string) =>
  queryRows<{ user_id: number; taxable_income: string; other_allowances: string; status: string }>(
    db,
    sql`SELECT user_id, taxable_income::text AS taxable_income, other_allowances::text AS other_allowances, status
        FROM paystubs WHERE transaction_id = ${runId} ORDER BY user_id`,
  );

describe('the regular runs around an exit', () => {
  let marchRun: string;

  test('the March run pays the leaver pro rata up to and including the exit date, like a joiner', async ({ ctx, api }) => {
    expect((await api.post(`/api/users/${leaver.id}/terminate`, { exit_date: '2026-03-20', reason: 'resignation' })).statusCode).toBe(200);
    expect(
      (await api.post(`/api/users/${joinerLeaver.id}/terminate`, { exit_date: '2026-03-20', reason: 'end_of_contract' })).statusCode,
    ).toBe(200);
    const created = await api.post('/api/payroll-runs', runBody());
    expect(created.statusCode, created.body).toBe(201);
    marchRun = created.json().run.id;
    // The administrator has no salary; nobody else is skipped.
    expect(created.json().run.skipped).toEqual([{ user_id: boss.id, reason: 'The employee has no base salary.' }]);
    expect(await stubs(ctx.db, marchRun)).toEqual([
      // 310,000 × 20/31 = 200,000 and 62,000 × 20/31 = 40,000: 1 to 20 March.
      { user_id: leaver.id, taxable_income: '200000.00', other_allowances: '40000.00', status: 'unpaid' },
      // 10 to 20 March: 310,000 × 11/31 = 110,000.
      { user_id: joinerLeaver.id, taxable_income: '110000.00', other_allowances: '0.00', status: 'unpaid' },
      { user_id: stayer.id, taxable_income: '310000.00', other_allowances: '0.00', status: 'unpaid' },
    ]);
  });

  test('the April run leaves both out silently, and lists a leaver asked for by id', async ({ ctx, api }) => {
    const april = { pay_period_start: '2026-04-01', pay_period_end: '2026-04-30', payment_date: '2026-04-28' };
    const created = await api.post('/api/payroll-runs', april);
    expect(created.statusCode, created.body).toBe(201);
    expect((await stubs(ctx.db, created.json().run.id)).map((stub) => stub.user_id)).toEqual([stayer.id]);
    expect(created.json().run.skipped).toEqual([{ user_id: boss.id, reason: 'The employee has no base salary.' }]);
    expect((await api.post(`/api/payroll-runs/${created.json().run.id}/cancel`)).statusCode).toBe(200);
    const named = await api.post('/api/payroll-runs', { ...april, user_ids: [leaver.id, stayer.id] });
    expect(named.statusCode, named.body).toBe(201);
    expect(named.json().run.skipped).toEqual([{ user_id: leaver.id, reason: 'The employee left before the pay period.' }]);
    expect((await api.post(`/api/payroll-runs/${named.json().run.id}/cancel`)).statusCode).toBe(200);
  });

  test('once the paystub covering the exit date is paid, reinstating is refused; before, it is allowed', async ({ ctx, company, api }) => {
    // Not paid yet (an approved draft): reinstating is allowed, and the exit can be recorded again.
    expect((await api.post(`/api/users/${joinerLeaver.id}/reinstate`, {})).statusCode).toBe(200);
    expect(
      (await api.post(`/api/users/${joinerLeaver.id}/terminate`, { exit_date: '2026-03-20', reason: 'end_of_contract' })).statusCode,
    ).toBe(200);
    const approved = await api.post(`/api/payroll-runs/${marchRun}/approve`, { approver_email: boss.email });
    expect(approved.statusCode, approved.body).toBe(200);
    await fundWallet(ctx.app, ctx.db, company, 2_000_000);
    expect((await api.post(`/api/payroll-runs/${marchRun}/pay`)).statusCode).toBe(202);
    await drainJobs(ctx.app);
    expect((await stubs(ctx.db, marchRun)).map((stub) => stub.status)).toEqual(['paid', 'paid', 'paid']);
    const refused = await api.post(`/api/users/${leaver.id}/reinstate`, {});
    expect([refused.statusCode, refused.json()]).toEqual([
      422,
      {
        error: {
          exit_date: ['The paystub covering the exit date (2026-03-01 to 2026-03-31) has been paid; this exit can no longer be undone.'],
        },
      },
    ]);
    expect((await api.get(`/api/users/${leaver.id}`)).json()).toMatchObject({ exit_date: '2026-03-20', is_active: false });
  });
});

describe('after every flow above', () => {
  test("every run's counts by status equal a GROUP BY of its paystubs (migrations/0265)", async ({ ctx }) => {
    expect(await runCountDrift(ctx.db)).toEqual([]);
  });
});
