// Loans and salary advances through HTTP (docs/payroll.md, "Loans and salary advances"): create,
// every field rule and every advance rule (Labour Act s.4) as a 422 naming it, the lists with their
// filters and pages, show, another company's user or loan not found, and loan.created written with
// the loan.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { webhookEvents } from '../../db/schema/index.js';
import { LOAN_RULES } from './loans.planner.js';

let ctx: TestContext;
let acme: TestCompany;
let other: TestCompany;
let ada: { id: number };
let bola: { id: number };
let stranger: { id: number };

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db, { name: 'Loans Ltd' });
  other = await createCompany(ctx.db, { name: 'Other Ltd' });
  [ada, bola] = await createUsers(ctx.db, acme.id, [{ baseSalary: '300000.00' }, { baseSalary: '200000.00' }]);
  [stranger] = await createUsers(ctx.db, other.id, [{ baseSalary: '300000.00' }]);
  await ctx.db.execute(sql`UPDATE users SET allowances = 60000.00 WHERE id = ${ada.id}`);
}, 120_000);
afterAll(() => ctx?.close());

const api = () => as(ctx.app, acme);
const loan = { kind: 'loan', principal: '500000.00', instalment: '50000', start_period: '2026-03', interest_rate_annual: '12' };
const advance = { kind: 'advance', principal: '90000', instalment: '30000', start_period: '2026-03' };

describe('POST /api/users/{id}/loans', () => {
  it('creates a loan (201) with its balance at the principal, and records loan.created with it', async () => {
    const endpoint = await api().post('/api/webhook-endpoints', { url: 'https://93.184.215.14/loans', events: ['loan.created'] });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const res = await api().post(`/api/users/${ada.id}/loans`, loan);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      message: 'Loan created successfully.',
      loan: {
        company_id: acme.id,
        user_id: ada.id,
        kind: 'loan',
        principal: '500000.00',
        balance: '500000.00',
        instalment: '50000.00',
        start_period: '2026-03',
        interest_rate_annual: '12',
        status: 'active',
        skipped_periods: [],
        closed_balance: null,
        closed_at: null,
      },
    });
    const events = await ctx.db.select().from(webhookEvents).where(eq(webhookEvents.companyId, acme.id));
    const bodies = events.map((event) => JSON.parse(event.body)).filter((body) => body.type === 'loan.created');
    expect(bodies.map((body) => body.data)).toEqual([res.json().loan]);
    expect((await api().delete(`/api/webhook-endpoints/${endpoint.json().endpoint.id}`)).statusCode).toBe(200);
  });

  it.each([
    ['nothing', {}, ['kind', 'principal', 'instalment', 'start_period']],
    ['a bad kind', { ...loan, kind: 'gift' }, ['kind']],
    ['a bad period', { ...loan, start_period: '2026-13' }, ['start_period']],
    ['three decimals and a zero', { ...loan, principal: '10.001', instalment: 0 }, ['principal', 'instalment']],
    ['an instalment above the principal', { ...loan, instalment: '600000' }, ['instalment']],
    ['a rate above 100', { ...loan, interest_rate_annual: '101' }, ['interest_rate_annual']],
  ])('refuses %s with 422 naming each field', async (_label, body, fields) => {
    const res = await api().post(`/api/users/${bola.id}/loans`, body);
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().error).sort()).toEqual([...fields].sort());
  });

  it('refuses each advance rule of the Labour Act s.4 with a 422 naming it', async () => {
    const cases: [Record<string, unknown>, Record<string, string[]>][] = [
      // Ada's month of wages: 300,000 + 60,000.
      [{ ...advance, principal: '360000.01', instalment: '100000' }, { principal: [LOAN_RULES.advanceWages('360000.00')] }],
      [{ ...advance, instalment: '30000.01' }, { instalment: [LOAN_RULES.advancePeriods] }],
      [{ ...advance, interest_rate_annual: '5' }, { interest_rate_annual: [LOAN_RULES.advanceInterest] }],
    ];
    for (const [body, error] of cases) {
      const res = await api().post(`/api/users/${ada.id}/loans`, body);
      expect([res.statusCode, res.json()]).toEqual([422, { error }]);
    }
    // At the limits: a month's wages over exactly 3 periods.
    const ok = await api().post(`/api/users/${ada.id}/loans`, { ...advance, principal: '360000', instalment: '120000' });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().loan).toMatchObject({ kind: 'advance', interest_rate_annual: '0' });
    const second = await api().post(`/api/users/${ada.id}/loans`, advance);
    expect([second.statusCode, second.json()]).toEqual([422, { error: { kind: [LOAN_RULES.advanceOutstanding] } }]);
    // A loan is not an advance: it may be given beside it.
    expect((await api().post(`/api/users/${ada.id}/loans`, { ...loan, interest_rate_annual: undefined })).statusCode).toBe(201);
  });

  it("answers another company's user, and a user who does not exist, with the same 404", async () => {
    const theirs = await api().post(`/api/users/${stranger.id}/loans`, loan);
    const nobody = await api().post('/api/users/2000000000/loans', loan);
    expect([theirs.statusCode, theirs.json()]).toEqual([404, { error: 'User not found.' }]);
    expect([nobody.statusCode, nobody.body]).toEqual([404, theirs.body]);
  });
});

describe('the lists and show', () => {
  it('GET /api/loans lists the company’s loans newest first, filtered and paged', async () => {
    const all = await api().get('/api/loans');
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().data.total).toBe(3);
    const ids = all.json().data.data.map((l: { id: number }) => l.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const advances = await api().get('/api/loans?kind=advance&status=active');
    expect(advances.json().data.data.map((l: { kind: string }) => l.kind)).toEqual(['advance']);
    expect((await api().get(`/api/loans?user_id=${bola.id}`)).json().data.total).toBe(0);
    const paged = await api().get('/api/loans?per_page=2&page=2');
    expect(paged.json().data).toMatchObject({ current_page: 2, per_page: 2, total: 3 });
    expect(paged.json().data.data).toHaveLength(1);
    // The total travels with the page's rows (db/page-total.ts); a page past the end still has it.
    const past = (await api().get('/api/loans?per_page=2&page=5')).json().data;
    expect({ total: past.total, data: past.data, current_page: past.current_page }).toEqual({ total: 3, data: [], current_page: 5 });
    expect((await api().get('/api/loans?status=closed')).statusCode).toBe(422);
    expect((await as(ctx.app, other).get('/api/loans')).json().data.total).toBe(0);
  });

  it("GET /api/users/{id}/loans lists one user's; GET /api/loans/{id} shows one, another company's not found", async () => {
    const mine = await api().get(`/api/users/${ada.id}/loans?kind=loan`);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().data.total).toBe(2);
    const id = mine.json().data.data[0].id;
    const shown = await api().get(`/api/loans/${id}`);
    expect([shown.statusCode, shown.json().loan]).toEqual([200, mine.json().data.data[0]]);
    const theirs = await as(ctx.app, other).get(`/api/loans/${id}`);
    expect([theirs.statusCode, theirs.json()]).toEqual([404, { error: 'Loan not found.' }]);
    expect((await as(ctx.app, other).get(`/api/users/${ada.id}/loans`)).statusCode).toBe(404);
  });
});
