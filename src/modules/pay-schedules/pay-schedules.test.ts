// Pay schedules through HTTP (docs/payroll-runs.md, "Pay schedules"): CRUD and its 422s, a
// schedule whose creation time has passed creates its period's draft run at once (one job turn),
// once, through the payroll-runs service (schedule_id on the run and in payroll_run.created), with
// the administrators e-mailed; include filters; pause and re-activation never make a period again;
// a refused period is recorded and the schedule goes on. Dates are worked out from today with the
// planner (its own table test pins the maths).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { expectTenantIsolation } from '../../../test/helpers/isolation.js';
import { queryRows } from '../../db/client.js';
import { addDays, firstOpenPeriod, lagosDay } from './pay-schedules.planner.js';

let ctx: TestContext;
let company: TestCompany;
let other: TestCompany;
let boss: { id: number; email: string };
let contractor: { id: number };
let leaver: { id: number };

const today = () => lagosDay(new Date());
const monthStart = (monthsAhead: number) => {
  const [y, m] = today().split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1 + monthsAhead, 1));
  return date.toISOString().slice(0, 10);
};

/**
 * create_days_before that makes the first open period of `rule` due now (created yesterday at
 * 06:00 Lagos) and the next one not yet.
 */
const dueNow = (firstPeriodStart: string, payDay: string) => {
  const first = firstOpenPeriod({ frequency: 'monthly', payDay, firstPeriodStart, createDaysBefore: 0 }, today(), null);
  return Math.round((Date.parse(first.paymentDate) - Date.parse(today())) / 86_400_000) + 1;
};

beforeAll(async () => {
  ctx = await createTestApp();
  company = await createCompany(ctx.db, { name: 'Schedules Ltd' });
  other = await createCompany(ctx.db, { name: 'Other Schedules Ltd' });
  [boss] = await createUsers(ctx.db, company.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'] }]);
  await createUsers(ctx.db, company.id, [{ baseSalary: '300000.00' }, { baseSalary: '200000.00' }]);
  [contractor] = await createUsers(ctx.db, company.id, [{ baseSalary: '150000.00', userType: 'Contract' }]);
  [leaver] = await createUsers(ctx.db, company.id, [{ baseSalary: '150000.00', isActive: false }]);
  await createUsers(ctx.db, other.id, [{ baseSalary: '100000.00' }]);
  const endpoint = await as(ctx.app, company).post('/api/webhook-endpoints', {
    url: 'https://93.184.215.14/schedules',
    events: ['payroll_run.created'],
  });
  expect(endpoint.statusCode, endpoint.body).toBe(201);
}, 180_000);
afterAll(() => ctx?.close());

const api = () => as(ctx.app, company);
const runsOf = (scheduleId: number) =>
  queryRows<{ id: string; pay_period_start: string; status: string; employees: number }>(
    ctx.db,
    sql`SELECT id, pay_period_start::text AS pay_period_start, status, (totals->>'employees')::int AS employees
        FROM payroll_runs WHERE schedule_id = ${scheduleId} ORDER BY pay_period_start`,
  );
const turn = async () => {
  await ctx.app.deps.jobs.runDue(100);
  await ctx.app.deps.jobs.runDue(100);
};

describe('POST /api/pay-schedules', () => {
  it('refuses incomplete or inconsistent schedules with every message at once', async () => {
    const empty = await api().post('/api/pay-schedules', {});
    expect(empty.statusCode).toBe(422);
    expect(Object.keys(empty.json().error).sort()).toEqual(['first_period_start', 'frequency', 'name', 'pay_day']);

    const cases: [Record<string, unknown>, string][] = [
      [{ pay_day: 'payday' }, 'pay_day'],
      [{ pay_day: 'friday' }, 'pay_day'],
      [{ first_period_start: '2026-01-29' }, 'first_period_start'],
      [{ first_period_start: '2026-02-30' }, 'first_period_start'],
      [{ frequency: 'weekly', pay_day: 'friday' }, 'frequency'],
      [{ create_days_before: 61 }, 'create_days_before'],
      [{ include: { user_types: ['Astronaut'] } }, 'include.user_types'],
      [{ include: { user_ids: [999999] } }, 'include.user_ids'],
      [{ include: { user_ids: [] } }, 'include.user_ids'],
    ];
    for (const [over, field] of cases) {
      const res = await api().post('/api/pay-schedules', {
        name: 'Bad',
        frequency: 'monthly',
        pay_day: 'last_working_day',
        first_period_start: '2026-01-01',
        ...over,
      });
      expect(res.statusCode, JSON.stringify(over)).toBe(422);
      expect(Object.keys(res.json().error), JSON.stringify(over)).toContain(field);
    }
    const [{ n }] = await queryRows<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM pay_schedules`);
    expect(n).toBe(0);
  });

  it('a schedule past its creation time creates its period run at once, exactly once, with schedule_id', async () => {
    const res = await api().post('/api/pay-schedules', {
      name: 'Monthly staff',
      frequency: 'monthly',
      pay_day: 'last_working_day',
      first_period_start: '2026-01-01',
      create_days_before: dueNow('2026-01-01', 'last_working_day'),
    });
    expect(res.statusCode, res.body).toBe(201);
    const schedule = res.json().pay_schedule;
    const expected = firstOpenPeriod(
      { frequency: 'monthly', payDay: 'last_working_day', firstPeriodStart: '2026-01-01', createDaysBefore: 0 },
      today(),
      null,
    );
    expect(schedule).toMatchObject({
      name: 'Monthly staff',
      pay_day: 'last_working_day',
      active: true,
      include: null,
      next_period: { pay_period_start: expected.start, pay_period_end: expected.end, payment_date: expected.paymentDate },
    });
    expect(schedule.upcoming).toHaveLength(3);
    expect(new Date(schedule.next_creation_at).getTime()).toBeLessThanOrEqual(Date.now());

    await turn();
    await turn();
    await ctx.app.services.paySchedules.paySchedules.runDue();
    const runs = await runsOf(schedule.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ pay_period_start: expected.start, status: 'draft', employees: 4 });

    const run = (await api().get(`/api/payroll-runs/${runs[0].id}`)).json().run;
    expect(run).toMatchObject({ schedule_id: schedule.id, payment_date: expected.paymentDate, created_by_email: null });
    const events = await queryRows<{ schedule_id: number }>(
      ctx.db,
      sql`SELECT (body::jsonb->'data'->>'schedule_id')::int AS schedule_id FROM webhook_events
          WHERE company_id = ${company.id} AND type = 'payroll_run.created'`,
    );
    expect(events).toEqual([{ schedule_id: schedule.id }]);
    const mails = await queryRows<{ subject: string; text: string }>(
      ctx.db,
      sql`SELECT subject, text FROM outbox WHERE "to" = ${boss.email} AND subject LIKE 'Draft payroll run ready%'`,
    );
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(`/console/payroll/${runs[0].id}`);

    const shown = (await api().get(`/api/pay-schedules/${schedule.id}`)).json().pay_schedule;
    expect(shown.runs).toEqual([expect.objectContaining({ pay_period_start: expected.start, run_id: runs[0].id, error: null })]);
    expect(shown.next_period.pay_period_start).toBe(addDays(expected.end, 1));
    const listed = (await api().get('/api/pay-schedules')).json().data;
    expect(listed.map((s: { id: number }) => s.id)).toContain(schedule.id);

    // Paused then re-activated: the period already made is never made again.
    const paused = await api().patch(`/api/pay-schedules/${schedule.id}`, { active: false });
    expect(paused.json().pay_schedule).toMatchObject({ active: false, next_period: null, next_creation_at: null });
    const resumed = await api().patch(`/api/pay-schedules/${schedule.id}`, { active: true });
    expect(resumed.json().pay_schedule.next_period.pay_period_start).toBe(addDays(expected.end, 1));
    // A lost lease (the claim and cursor put back as a crashed instance left them): the key holds.
    await ctx.db.execute(
      sql`UPDATE pay_schedules SET next_period_start = ${expected.start}, next_creation_at = now() - interval '1 minute',
            claimed_until = NULL WHERE id = ${schedule.id}`,
    );
    const step = await ctx.app.services.paySchedules.paySchedules.runDue();
    expect(step).toMatchObject({ claimed: 1, created: 0, failed: 0, errors: [] });
    expect(await runsOf(schedule.id)).toHaveLength(1);

    await api().delete(`/api/pay-schedules/${schedule.id}`);
    // The runs a deleted schedule made stay; a second monthly schedule may now cover the same staff.
    expect((await api().get(`/api/pay-schedules/${schedule.id}`)).statusCode).toBe(404);
    expect(await runsOf(schedule.id)).toHaveLength(1);
  });

  it('include filters who is paid; a refused period is recorded, mailed, and the schedule goes on', async () => {
    const contract = await api().post('/api/pay-schedules', {
      name: 'Contractors',
      frequency: 'monthly',
      pay_day: 25,
      first_period_start: monthStart(-1).replace(/-01$/, '-26'),
      create_days_before: dueNow(monthStart(-1).replace(/-01$/, '-26'), '25'),
      include: { user_types: ['Contract'] },
    });
    expect(contract.statusCode, contract.body).toBe(201);
    expect(contract.json().pay_schedule.pay_day).toBe(25);
    const inactive = await api().post('/api/pay-schedules', {
      name: 'Leavers only',
      frequency: 'monthly',
      pay_day: 'last_working_day',
      first_period_start: monthStart(0),
      create_days_before: dueNow(monthStart(0), 'last_working_day'),
      include: { user_ids: [leaver.id] },
    });
    expect(inactive.statusCode, inactive.body).toBe(201);
    await turn();

    const contractRuns = await runsOf(contract.json().pay_schedule.id);
    expect(contractRuns).toHaveLength(1);
    const paystubs = await queryRows<{ user_id: number }>(
      ctx.db,
      sql`SELECT user_id FROM paystubs WHERE transaction_id = ${contractRuns[0].id}`,
    );
    expect(paystubs).toEqual([{ user_id: contractor.id }]);

    const failedId = inactive.json().pay_schedule.id;
    expect(await runsOf(failedId)).toHaveLength(0);
    const shown = (await api().get(`/api/pay-schedules/${failedId}`)).json().pay_schedule;
    expect(shown.runs).toHaveLength(1);
    expect(shown.runs[0].run_id).toBeNull();
    expect(shown.runs[0].error).toMatch(/./);
    expect(shown.next_period.pay_period_start > shown.runs[0].pay_period_start).toBe(true);
    const mails = await queryRows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM outbox WHERE "to" = ${boss.email} AND subject LIKE 'Payroll run not created%'`,
    );
    expect(mails[0].n).toBe(1);
  });

  it('a schedule whose creation time is ahead waits', async () => {
    const res = await api().post('/api/pay-schedules', {
      name: 'Later',
      frequency: 'monthly',
      pay_day: 'last_working_day',
      first_period_start: monthStart(3),
    });
    const schedule = res.json().pay_schedule;
    expect(schedule.next_period.pay_period_start).toBe(monthStart(3));
    expect(new Date(schedule.next_creation_at).getTime()).toBeGreaterThan(Date.now());
    await turn();
    expect(await runsOf(schedule.id)).toHaveLength(0);
  });
});

describe('tenant isolation', () => {
  it("another company's schedules are out of reach", async () => {
    const mine = await as(ctx.app, other).post('/api/pay-schedules', {
      name: 'Theirs',
      frequency: 'monthly',
      pay_day: 'last_working_day',
      first_period_start: monthStart(3),
    });
    const id = mine.json().pay_schedule.id;
    await expectTenantIsolation(
      ctx.app,
      company,
      other,
      [
        { method: 'GET', url: `/api/pay-schedules/${id}` },
        { method: 'PATCH', url: `/api/pay-schedules/${id}`, payload: { name: 'x' } },
        { method: 'DELETE', url: `/api/pay-schedules/${id}` },
        { method: 'GET', url: `/api/pay-schedules?company_id=${other.id}` },
        { method: 'POST', url: '/api/pay-schedules', payload: { company_id: other.id, name: 'x' } },
      ],
      { tables: ['pay_schedules', 'pay_schedule_periods', 'payroll_runs'] },
    );
  });
});
