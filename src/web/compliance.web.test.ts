// The console's Compliance page over inject: the month's schedules with amounts and due dates
// (overdue in red), downloads through the session, the missing-data list linking to each
// employee, a bad month shown as a 422 page, and nothing of another company's.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany } from '../../test/helpers/factories.js';
import { anonymous, as } from '../../test/helpers/http.js';
import { buildRemittanceWorld, type RemittanceWorld } from '../../test/helpers/remittances.js';
import { createAdmin, signIn, type WebClient } from '../../test/helpers/web.js';
import { naira } from '../tax-engine/money.js';

let ctx: TestContext;
let world: RemittanceWorld;
let admin: WebClient;
let stranger: WebClient;

beforeAll(async () => {
  ctx = await createTestApp({ sandboxTransferDelaySeconds: 0 });
  world = await buildRemittanceWorld(ctx.app, ctx.db);
  admin = await signIn(ctx.app, (await createAdmin(ctx.db, world.company.id, { firstName: 'Cara', lastName: 'Compliance' })).email);
  const other = await createCompany(ctx.db, { name: 'Other Ltd' });
  stranger = await signIn(ctx.app, (await createAdmin(ctx.db, other.id)).email);
}, 180_000);
afterAll(() => ctx?.close());

/** The API's answer for the world's company, to compare the page with. */
const apiGet = async (url: string) => (await as(ctx.app, world.company).get(url)).json();

describe('console compliance', () => {
  it("shows the month's schedules with the API's amounts, overdue dates in red and downloads", async () => {
    const res = await admin.get('/console/compliance?month=2026-03');
    expect(res.statusCode).toBe(200);
    const api = await apiGet('/api/remittances?month=2026-03');
    expect(res.body).toContain('href="/console/compliance" aria-current="page"');
    expect(res.body).toContain('value="2026-03"');
    for (const entry of api.schedules.paye) {
      expect(res.body).toContain(`data-schedule="paye-${entry.state}"`);
      expect(res.body).toContain(naira(entry.amount));
    }
    for (const entry of api.schedules.pension) expect(res.body).toContain(naira(entry.total));
    expect(res.body).toContain(naira(api.schedules.nsitf.amount));
    // March 2026's deadlines have passed by the time this runs (the page compares with today).
    if (new Date().toISOString().slice(0, 10) > '2026-04-16') expect(res.body).toContain('Overdue: 2026-04-10');
    expect(res.body).toContain('href="/console/compliance/paye.csv?month=2026-03&amp;state=LA"');
    expect(res.body).toContain('href="/console/compliance/pension.xlsx?month=2026-03&amp;pfa_code=LEADWAY"');
  });

  it('lists the missing data, each employee linking to their statutory details', async () => {
    const res = await admin.get('/console/compliance?month=2026-03');
    const funke = world.staff[6];
    expect(res.body).toContain(`href="/console/employees/${funke.id}/statutory"`);
    expect(res.body).toContain('state_of_residence');
    // The formula-like name is escaped HTML, never markup.
    expect(res.body).toContain('=HYPERLINK(&quot;http://evil.example&quot;');
  });

  it('totals include the amounts of employees with missing data, on a line of their own', async () => {
    const res = await admin.get('/console/compliance?month=2026-03');
    const api = await apiGet('/api/remittances?month=2026-03');
    const { totals } = api.schedules;
    const cell = (attr: string) =>
      new RegExp(`data-total="${attr}"><td colspan="\\d">[^<]*</td><td class="num">([^<]*)</td>`).exec(res.body)?.[1];
    // The world has an employee without a state: their PAYE is in no schedule but in the total.
    expect(totals.paye.missing_amount).toBeGreaterThan(0);
    expect(res.body).toContain('Employees with missing data (in no schedule yet; see Missing data)');
    expect(cell('filed')).toBe(naira(totals.paye.amount));
    expect(cell('missing')).toBe(naira(totals.paye.missing_amount));
    const exact = (a: number, b: number) => (Math.round(a * 100) + Math.round(b * 100)) / 100;
    expect(cell('total')).toBe(naira(exact(totals.paye.amount, totals.paye.missing_amount)));
    // Every wide table scrolls inside its card (docs/console.md).
    expect(res.body.match(/<table>/g)?.length).toBe(res.body.match(/<div class="table-wrap"><table>/g)?.length);
    // The missing-data list shows each employee's amounts.
    const funke = world.staff[6];
    expect(res.body).toMatch(new RegExp(`data-missing="${funke.id}">.*?<td class="num">₦[\\d,.]+</td>`, 's'));
  });

  it('downloads a schedule through the session', async () => {
    const res = await admin.get('/console/compliance/paye.csv?month=2026-03&state=LA');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="paye-LA-2026-03.csv"');
    const rows = parse(res.body, { relax_column_count: true }) as string[][];
    expect(rows[1]).toEqual(['Employer', 'Remit & Co']);
    const xlsx = await admin.get('/console/compliance/nhf.xlsx?month=2026-03');
    expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  });

  it('a bad month or schedule is a page with the message; no session goes to sign-in', async () => {
    const bad = await admin.get('/console/compliance?month=2026-13');
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('The month must be a month as YYYY-MM');
    expect((await admin.get('/console/compliance/paye.csv?month=2026-03&state=XX')).statusCode).toBe(422);
    expect((await admin.get('/console/compliance/paye.pdf?month=2026-03')).statusCode).toBe(404);
    const signedOut = await as(ctx.app, anonymous).get('/console/compliance');
    expect([302, 303]).toContain(signedOut.statusCode);
  });

  it("another company's admin sees only their own (empty) schedules", async () => {
    const res = await stranger.get('/console/compliance?month=2026-03');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('Funke');
    expect(res.body).toContain('No PAYE this month.');
    const csv = await stranger.get('/console/compliance/nsitf.csv?month=2026-03');
    expect(csv.body).not.toContain('Remit & Co');
  });
});

describe('console compliance: filings and due dates', () => {
  it("shows each schedule's filing status with days late, and the next 3 months' due dates", async () => {
    const res = await admin.get('/console/compliance?month=2026-03');
    const api = await apiGet('/api/remittances?month=2026-03');
    const nsitf = api.schedules.nsitf;
    const row = /data-filing="nsitf">.*?<\/tr>/.exec(res.body)?.[0] ?? '';
    expect(row).toContain(`data-status="${nsitf.status}"`);
    if (nsitf.days_late > 0) expect(row).toContain(`${nsitf.days_late} day`);
    expect(res.body).toContain('action="/console/compliance/filings"');
    expect(res.body).toContain('id="calendar"');
    const today = new Date().toISOString().slice(0, 10);
    const end = new Date(`${today}T00:00:00Z`);
    end.setUTCMonth(end.getUTCMonth() + 3);
    const calendar = await apiGet(`/api/remittances/calendar?from=${today}&to=${end.toISOString().slice(0, 10)}`);
    for (const entry of calendar.data) expect(res.body).toContain(entry.due_date);
    // A yearly date (the annual return of 31 January, the ITF levy of 1 April) is named, without a filing status.
    if (calendar.data.some((e: { kind: string }) => e.kind === 'annual_return')) expect(res.body).toContain('Annual PAYE return');
  });

  it('records a filing (303, then filed on the page and in the API), refuses a bad one with its message', async () => {
    const bad = await admin.post('/console/compliance/filings', {
      kind: 'nsitf',
      month: '2026-03',
      amount: 'abc',
      paid_on: '2026-04-01',
      receipt_reference: 'R-1',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('role="alert"');
    expect(bad.body).toContain('value="R-1"');
    const api = await apiGet('/api/remittances?month=2026-03');
    expect(api.schedules.nsitf.filing).toBeNull();
    const res = await admin.post('/console/compliance/filings', {
      kind: 'nsitf',
      month: '2026-03',
      authority: '',
      amount: String(api.schedules.nsitf.amount),
      paid_on: '2026-04-05',
      receipt_reference: 'NSITF-RCPT-1',
    });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(303);
    const after = await apiGet('/api/remittances?month=2026-03');
    expect(after.schedules.nsitf.filing.receipt_reference).toBe('NSITF-RCPT-1');
    const shown = await admin.get(res.headers.location as string);
    expect(shown.body).toContain('Filing recorded.');
    expect(shown.body).toContain('NSITF-RCPT-1');
    // Another company's console cannot see it.
    expect((await stranger.get('/console/compliance?month=2026-03')).body).not.toContain('NSITF-RCPT-1');
  });
});
