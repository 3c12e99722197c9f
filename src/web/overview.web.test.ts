// The console overview (GET /console) over inject: empty, then after a run paid last month through
// the console (maker, checker, wallet, transfers), with a pay schedule: the last run and its totals,
// the next scheduled run, this month's remittances (as GET /api/remittances/calendar counts them),
// the wallet balance and the 12-month chart (its figures equal the run's totals); another
// company's administrator sees none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../test/helpers/factories.js';
import { as } from '../../test/helpers/http.js';
import { drainJobs, fundWallet, setBankAccounts } from '../../test/helpers/payroll-runs.js';
import { createAdmin, signIn, type WebClient } from '../../test/helpers/web.js';
import { lagosDate } from '../platform/format.js';
import { naira } from '../tax-engine/money.js';
import { monthLabel } from './overview-chart.view.js';

let ctx: TestContext;
let acme: TestCompany;
let maker: WebClient;
let checker: WebClient;
let stranger: WebClient;

const today = lagosDate();
const month = today.slice(0, 7);
const monthStart = (offset: number) => {
  const date = new Date(`${month}-01T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + offset);
  return date.toISOString().slice(0, 10);
};
const lastDay = (start: string) => {
  const date = new Date(`${start}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + 1, 0);
  return date.toISOString().slice(0, 10);
};

beforeAll(async () => {
  ctx = await createTestApp({ walletVerifyDelaySeconds: 0, sandboxTransferDelaySeconds: 0 });
  acme = await createCompany(ctx.db, { name: 'Overview Foods' });
  const other = await createCompany(ctx.db, { name: 'Elsewhere Ltd' });
  const makerUser = await createAdmin(ctx.db, acme.id, { firstName: 'Ada', lastName: 'Maker' });
  const checkerUser = await createAdmin(ctx.db, acme.id, { firstName: 'Bayo', lastName: 'Checker' });
  const strangerUser = await createAdmin(ctx.db, other.id, { firstName: 'Eze', lastName: 'Stranger' });
  const staff = await createUsers(ctx.db, acme.id, [
    { firstName: 'Chidi', lastName: 'Paid', baseSalary: '300000.00' },
    { firstName: 'Ngozi', lastName: 'Paid', baseSalary: '250000.50' },
  ]);
  await setBankAccounts(ctx.db, [makerUser.id, checkerUser.id, ...staff.map((user) => user.id)]);
  maker = await signIn(ctx.app, makerUser.email);
  checker = await signIn(ctx.app, checkerUser.email);
  stranger = await signIn(ctx.app, strangerUser.email);
}, 180_000);
afterAll(() => ctx?.close());

describe('GET /console (overview)', () => {
  it('says what is missing while the company has no run, schedule or remittance', async () => {
    const res = await maker.get('/console');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('No payroll runs yet.');
    expect(res.body).toContain('No pay schedule: runs are created by hand.');
    expect(res.body).toContain(`Nothing falls due in ${month}.`);
    expect(res.body).toMatch(/<svg [^>]*role="img" aria-label="Net pay and tax paid, [^"]*" aria-describedby="chart-desc"/);
    expect(res.body).toContain(`to ${monthLabel(month)}</title>`);
    expect(res.body).toMatch(/<desc id="chart-desc">No payroll was paid from [A-Z][a-z]{2} \d{4} to /);
    expect(res.body.match(/<rect class="net"/g)).toHaveLength(12);
  });

  it('shows the last run, the next scheduled run, the remittances due and the chart after a paid run', async () => {
    const start = monthStart(-1);
    const end = lastDay(start);
    let res = await maker.post('/console/payroll/new', { pay_period_start: start, pay_period_end: end, payment_date: end, include: 'all' });
    expect(res.statusCode, res.body).toBe(303);
    const id = /\/console\/payroll\/([^?]+)\?done=created$/.exec(res.headers.location as string)?.[1] as string;
    expect((await checker.post(`/console/payroll/${id}/approve`, {})).statusCode).toBe(303);
    await fundWallet(ctx.app, ctx.db, acme, 5_000_000);
    expect((await checker.post(`/console/payroll/${id}/pay`, {})).statusCode).toBe(303);
    await drainJobs(ctx.app);
    const api = as(ctx.app, acme);
    const run = (await api.get(`/api/payroll-runs/${id}`)).json().run;
    expect(run.status).toBe('paid');

    const schedule = await api.post('/api/pay-schedules', {
      name: 'Monthly staff',
      frequency: 'monthly',
      pay_day: 'last_working_day',
      first_period_start: monthStart(2),
    });
    expect(schedule.statusCode, schedule.body).toBe(201);
    const next = schedule.json().pay_schedule.next_period;

    const calendar = await api.get(`/api/remittances/calendar?from=${start}&to=${lastDay(`${month}-01`)}`);
    expect(calendar.statusCode, calendar.body).toBe(200);
    const due = (calendar.json().data as { due_date: string; status: string }[]).filter((entry) => entry.due_date.startsWith(month));

    res = await maker.get('/console');
    expect(res.statusCode).toBe(200);
    const body = res.body;
    expect(body).toContain(`aria-label="Open payroll run ${id}"`);
    expect(body).toContain(`${start} to ${end}`);
    expect(body).toContain(`<dt>Net pay</dt><dd>${naira(run.totals.net_pay)}</dd>`);
    expect(body).toContain(`<dt>Tax withheld</dt><dd>${naira(run.totals.tax_withheld)}</dd>`);
    expect(body).toContain(`<p class="figure">${next.payment_date}</p>`);
    expect(body).toContain(`Monthly staff: ${next.pay_period_start} to ${next.pay_period_end}`);
    if (due.length === 0) expect(body).toContain(`Nothing falls due in ${month}.`);
    else expect(body).toContain(`of ${due.length} due in ${month}`);
    // The chart: last month's bars carry the run's exact figures, in the title and the description.
    const label = monthLabel(start.slice(0, 7));
    expect(body).toContain(`<title>${label} net pay ${naira(run.totals.net_pay)}</title>`);
    expect(body).toContain(`<title>${label} tax ${naira(run.totals.tax_withheld)}</title>`);
    expect(body).toContain(`${label}: net pay ${naira(run.totals.net_pay)}, tax ${naira(run.totals.tax_withheld)}.`);
    const balance = (await api.get('/api/wallet/balance')).json().balance as number;
    expect(body).toContain(`<h2>Wallet balance</h2><p class="figure">${naira(balance)}</p>`);
  });

  it("shows another company's administrator nothing of it", async () => {
    const res = await stranger.get('/console');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('No payroll runs yet.');
    expect(res.body).toContain('No pay schedule');
    expect(res.body).toMatch(/<desc id="chart-desc">No payroll was paid/);
  });
});
