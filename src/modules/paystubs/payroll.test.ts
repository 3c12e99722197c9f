// HTTP tests of P2, P1 and S4-S5 against a real database (PGlite, or PostgreSQL with DATABASE_URL).
// They stay in one file because P1 and S4-S5 read the paystubs the P2 tests create. S1-S3 and
// S6-S10 are in payroll.contributions.test.ts; P2 with custom contributions, concurrency and
// idempotency in payroll.runs.test.ts.
import { eq, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as, anonymous as noCredentials } from '../../../test/helpers/http.js';
import { countRows, createPayrollWorld, paystubItem, postPaystubs, setSettings, setUserTaxFacts } from '../../../test/helpers/payroll.js';
import { queryRows } from '../../db/client.js';
import { users } from '../../db/schema/index.js';

let ctx: TestContext;
let acme: TestCompany;
let child: TestCompany;
let stranger: TestCompany;
let staff: Awaited<ReturnType<typeof createUsers>>;
let strangerUser: Awaited<ReturnType<typeof createUsers>>[number];
let childUser: Awaited<ReturnType<typeof createUsers>>[number];
const MISSING_COMPANY = 99_999_999;

const count = (table: string, where?: SQL) => countRows(ctx.db, table, where);

beforeAll(async () => {
  ctx = await createTestApp();
  ({ acme, staff, child, stranger, strangerUser, childUser } = await createPayrollWorld(ctx.db));
});
afterAll(() => ctx.close());

describe('P2 POST /api/paystubs', () => {
  it('refuses a bad envelope with 400 {error: "Bad Request"}', async () => {
    const item = paystubItem(staff[0].id);
    for (const body of [
      {},
      { paystubs: item },
      { paystubs: 'x' },
      { paystubs: [] },
      { paystubs: Array.from({ length: 1001 }, () => item) },
      [item],
    ]) {
      const res = await postPaystubs(ctx.app, acme, body);
      expect([res.statusCode, res.json()]).toEqual([400, { error: 'Bad Request' }]);
    }
    const malformed = await as(ctx.app, acme).post('/api/paystubs', '{"paystubs": [', { headers: { 'content-type': 'application/json' } });
    expect([malformed.statusCode, malformed.json()]).toEqual([400, { error: 'Malformed JSON body.' }]);
    const anonymous = await as(ctx.app, noCredentials).post('/api/paystubs', { paystubs: [item] });
    expect([anonymous.statusCode, anonymous.json()]).toEqual([401, { error: 'Unauthorized' }]);
    expect(await count('paystubs')).toBe(0);
  });

  it('creates a run: figures, status unpaid, contribution records, transaction id', async () => {
    const res = await postPaystubs(ctx.app, acme, {
      paystubs: [
        paystubItem(staff[0].id),
        paystubItem(staff[5].id, { taxable_income: 100000, reimbursements: 1234.5, other_allowances: 20000 }),
      ],
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.message).toBe('Paystub processing completed');
    expect(body.failed_paystubs).toEqual([]);
    expect(body.created_paystubs).toHaveLength(2);
    const [first, second] = body.created_paystubs.map((row: { paystub: Record<string, unknown> }) => row.paystub);
    // NTA 2025, T 500,000 monthly: tax 65,120; pension 36,000; NHF 5,000 (engine golden case "monthly 500,000").
    expect(first).toMatchObject({
      user_id: staff[0].id,
      company_id: acme.id,
      pay_period_start: '2026-01-01',
      pay_period_end: '2026-01-31',
      taxable_income: 500000,
      reimbursements: 0,
      other_allowances: 0,
      gross_pay: 500000,
      tax_withheld: 65120,
      pension_contribution: 36000,
      nhf_contribution: 5000,
      nhis_contribution: 0,
      other_deductions: 0,
      net_pay: 393880,
      status: 'unpaid',
    });
    expect(first.transaction_id).toMatch(/^PR-\d{8}-[A-Z0-9]{6}$/);
    expect(second.transaction_id).toBe(first.transaction_id);
    expect(body.transaction_id).toBe(first.transaction_id);
    // T 100,000: GI 1.2m, D 98,400, chargeable 1,101,600 → 15 % × 301,600 = 45,240 ÷ 12 = 3,770.
    expect(second).toMatchObject({
      gross_pay: 120000,
      tax_withheld: 3770,
      pension_contribution: 7200,
      nhf_contribution: 1000,
      net_pay: 109264.5,
    });
    const [stored] = await queryRows<Record<string, string>>(
      ctx.db,
      sql`SELECT user_id, company_id, employer_pension_contribution::text AS employer_pension, employer_cost::text AS employer_cost,
                 tax_withheld::text AS tax, tax_regime FROM paystubs WHERE id = ${first.id}`,
    );
    expect(stored).toEqual({
      user_id: staff[0].id,
      company_id: acme.id,
      employer_pension: '45000.00',
      employer_cost: '545000.00',
      tax: '65120.00',
      tax_regime: 'nta2025',
    });
  });

  it('fails bad items one by one and creates the rest', async () => {
    await ctx.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, staff[4].id));
    const items = [
      paystubItem(staff[1].id, { pay_period_start: '2026-02-01', pay_period_end: '2026-02-28' }),
      paystubItem(strangerUser.id),
      paystubItem(999999),
      paystubItem(staff[4].id),
      { ...paystubItem(staff[1].id), pay_period_start: '2026-02-30' },
      paystubItem(staff[1].id, { pay_period_start: '2026-03-31', pay_period_end: '2026-03-01' }),
      paystubItem(staff[1].id, { taxable_income: -1 }),
      paystubItem(staff[1].id, { taxable_income: 10.123 }),
      { id: String(staff[1].id), pay_period_start: '2026-04-01', pay_period_end: '2026-04-30', taxable_income: 'lots' },
      paystubItem(staff[0].id), // January already exists from the previous run
      paystubItem(staff[1].id, { pay_period_start: '2026-02-01', pay_period_end: '2026-02-28', taxable_income: 1 }), // in-batch duplicate
      'not an object',
      { pay_period_start: '2026-01-01' },
    ];
    const res = await postPaystubs(ctx.app, acme, { paystubs: items });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.created_paystubs).toHaveLength(1);
    expect(body.failed_paystubs).toEqual([
      { id: String(strangerUser.id), errors: { id: ['The selected id is invalid.'] } },
      { id: '999999', errors: { id: ['The selected id is invalid.'] } },
      { id: String(staff[4].id), errors: { id: ['The selected id is invalid.'] } },
      {
        id: String(staff[1].id),
        errors: { pay_period_start: ['The pay period start field must be a valid date in the format YYYY-MM-DD.'] },
      },
      {
        id: String(staff[1].id),
        errors: { pay_period_end: ['The pay period end field must be a date after or equal to pay period start.'] },
      },
      { id: String(staff[1].id), errors: { taxable_income: ['The taxable income field must be at least 0.'] } },
      { id: String(staff[1].id), errors: { taxable_income: ['The taxable income field must have at most 2 decimal places.'] } },
      {
        id: String(staff[1].id),
        errors: {
          taxable_income: ['The taxable income field must be a number.'],
          reimbursements: ['The reimbursements field is required.'],
          other_allowances: ['The other allowances field is required.'],
        },
      },
      { id: String(staff[0].id), errors: { pay_period_start: ['A paystub for this user and pay period already exists.'] } },
      { id: String(staff[1].id), errors: { pay_period_start: ['A paystub for this user and pay period already exists.'] } },
      { id: null, errors: { paystub: ['Each paystub must be an object.'] } },
      {
        id: null,
        errors: {
          id: ['The id field is required.'],
          pay_period_end: ['The pay period end field is required.'],
          taxable_income: ['The taxable income field is required.'],
          reimbursements: ['The reimbursements field is required.'],
          other_allowances: ['The other allowances field is required.'],
        },
      },
    ]);
    await ctx.db.update(users).set({ deletedAt: null }).where(eq(users.id, staff[4].id));
  });

  it('acts for a child company; 403 for a stranger, 404 for a missing company', async () => {
    const res = await postPaystubs(ctx.app, acme, {
      company_id: child.id,
      paystubs: [paystubItem(childUser.id), paystubItem(staff[2].id)],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().created_paystubs[0].paystub.company_id).toBe(child.id);
    // A parent's own user is not a user of the child.
    expect(res.json().failed_paystubs).toEqual([{ id: String(staff[2].id), errors: { id: ['The selected id is invalid.'] } }]);
    const forbidden = await postPaystubs(ctx.app, acme, { company_id: stranger.id, paystubs: [paystubItem(strangerUser.id)] });
    expect([forbidden.statusCode, forbidden.json()]).toEqual([
      403,
      { error: "You do not have permission to access this company's paystubs." },
    ]);
    const missing = await postPaystubs(ctx.app, acme, { company_id: MISSING_COMPANY, paystubs: [paystubItem(strangerUser.id)] });
    expect([missing.statusCode, missing.json()]).toEqual([404, { error: 'Paystub or company not found.' }]);
  });

  it('uses the user frequency, rent relief and the company settings', async () => {
    const chidi = staff[2]; // weekly
    await setUserTaxFacts(ctx.db, staff[3].id, { annualRentPaid: '1200000.00' });
    const res = await postPaystubs(ctx.app, acme, {
      paystubs: [
        paystubItem(chidi.id, { pay_period_start: '2026-03-02', pay_period_end: '2026-03-06', taxable_income: 100000 }),
        paystubItem(staff[3].id, { pay_period_start: '2026-01-01', pay_period_end: '2026-01-31' }),
      ],
    });
    const [weekly, rent] = res.json().created_paystubs.map((row: { paystub: Record<string, number> }) => row.paystub);
    expect(weekly.tax_withheld).toBe(12485.54); // engine golden case "weekly" (NTA)
    expect(rent.tax_withheld).toBe(61520); // engine golden case "rent relief below the cap"
    await setSettings(ctx.db, acme.id, { taxRegime: 'none' });
    const none = await postPaystubs(ctx.app, acme, {
      paystubs: [paystubItem(staff[3].id, { pay_period_start: '2026-02-01', pay_period_end: '2026-02-28' })],
    });
    expect(none.json().created_paystubs[0].paystub.tax_withheld).toBe(0);
    await setSettings(ctx.db, acme.id, { taxRegime: 'auto' });
  });

  it('fails an item whose deductions exceed pay', async () => {
    const loan = (
      await as(ctx.app, child).post(`/api/custom-contributions/${child.id}`, {
        name: 'Loan',
        type: 'amount',
        apply_to: 'gross_pay',
        responsibility: 'employee',
        employee_value: 1000000,
        frequency: 'per_paystub',
      })
    ).json().data;
    const res = await postPaystubs(ctx.app, child, {
      paystubs: [paystubItem(childUser.id, { pay_period_start: '2026-05-01', pay_period_end: '2026-05-31' })],
    });
    expect(res.json().failed_paystubs).toEqual([{ id: String(childUser.id), errors: { taxable_income: ['Deductions exceed pay.'] } }]);
    expect(await count('paystubs', sql`user_id = ${childUser.id} AND pay_period_start = '2026-05-01'`)).toBe(0);
    await as(ctx.app, child).delete(`/api/custom-contributions/${child.id}/${loan.id}`);
  });
});

describe('P1 GET /api/paystubs', () => {
  it('lists newest first with the exact Laravel paginator and filters that combine', async () => {
    const total = await count('paystubs', sql`company_id = ${acme.id}`);
    const res = await as(ctx.app, acme).get('/api/paystubs?per_page=2&page=2');
    expect(res.statusCode).toBe(200);
    const { message, data } = res.json();
    expect(message).toBe('Paystubs retrieved successfully');
    const lastPage = Math.ceil(total / 2);
    expect({ ...data, data: undefined }).toEqual({
      current_page: 2,
      data: undefined,
      first_page_url: 'http://payroll.test/api/paystubs?per_page=2&page=1',
      from: 3,
      last_page: lastPage,
      last_page_url: `http://payroll.test/api/paystubs?per_page=2&page=${lastPage}`,
      next_page_url: lastPage > 2 ? 'http://payroll.test/api/paystubs?per_page=2&page=3' : null,
      path: 'http://payroll.test/api/paystubs',
      per_page: 2,
      prev_page_url: 'http://payroll.test/api/paystubs?per_page=2&page=1',
      to: 4,
      total,
    });
    const all = (await as(ctx.app, acme).get('/api/paystubs?per_page=100')).json().data.data;
    expect(all.map((p: { id: number }) => p.id)).toEqual([...all.map((p: { id: number }) => p.id)].sort((a, b) => b - a));
    const item = all.find((p: { user_id: number; pay_period_start: string }) => p.user_id === staff[0].id);
    expect(item.user).toMatchObject({
      id: staff[0].id,
      first_name: 'Ada',
      last_name: 'Obi',
      email: staff[0].email,
      user_types: 'Full-time',
    });
    expect(item.user.password_hash).toBeUndefined();
    expect(item.contribution).toMatchObject({
      paystub_id: item.id,
      employee_id: staff[0].id,
      company_id: acme.id,
      employee_pension_contribution: 36000,
      employer_pension_contribution: 45000,
      nhf_contribution: 5000,
      pit_contribution: 65120,
      custom_contribution_records: [],
    });

    const txn = item.transaction_id;
    const filtered = await as(ctx.app, acme).get(`/api/paystubs?user_id=${staff[0].id}&transaction_id=${txn}&status=unpaid`);
    const page = filtered.json().data;
    expect(page.data.map((p: { id: number }) => p.id)).toEqual([item.id]);
    expect(page.first_page_url).toBe(`http://payroll.test/api/paystubs?user_id=${staff[0].id}&transaction_id=${txn}&status=unpaid&page=1`);
    expect(page.next_page_url).toBeNull();
    expect((await as(ctx.app, acme).get(`/api/paystubs?user_id=${staff[0].id}&status=paid`)).json().data).toMatchObject({
      total: 0,
      from: null,
      to: null,
      last_page: 1,
      data: [],
    });
  });

  it('keeps tenants apart and validates the query', async () => {
    const strangerList = (await as(ctx.app, stranger).get(`/api/paystubs?user_id=${staff[0].id}`)).json().data;
    expect(strangerList.total).toBe(0);
    const childList = (await as(ctx.app, acme).get(`/api/paystubs?company_id=${child.id}`)).json().data;
    expect(childList.data.every((p: { company_id: number }) => p.company_id === child.id)).toBe(true);
    expect(childList.first_page_url).toBe(`http://payroll.test/api/paystubs?company_id=${child.id}&page=1`);
    const forbidden = await as(ctx.app, acme).get(`/api/paystubs?company_id=${stranger.id}`);
    expect([forbidden.statusCode, forbidden.json()]).toEqual([
      403,
      { error: "You do not have permission to access this company's paystubs." },
    ]);
    const missing = await as(ctx.app, acme).get(`/api/paystubs?company_id=${MISSING_COMPANY}`);
    expect([missing.statusCode, missing.json()]).toEqual([404, { error: 'Paystub or company not found.' }]);
    for (const query of ['per_page=101', 'per_page=0', 'page=0', 'user_id=abc']) {
      const res = await as(ctx.app, acme).get(`/api/paystubs?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(typeof res.json().error).toBe('string');
    }
    const anonymous = await as(ctx.app, noCredentials).get('/api/paystubs');
    expect([anonymous.statusCode, anonymous.json()]).toEqual([401, { error: 'Unauthorized' }]);
  });
});

describe('S4-S5 contributions', () => {
  it('S4 lists a company contribution records with contribution_details as a JSON string', async () => {
    const res = await as(ctx.app, acme).get(`/api/contributions/${acme.id}`);
    expect(res.statusCode).toBe(200);
    const { message, data } = res.json();
    expect(message).toBe('Contributions retrieved successfully');
    expect(data.length).toBe(await count('paystubs', sql`company_id = ${acme.id}`));
    const row = data.find((r: { employee_id: number }) => r.employee_id === staff[0].id);
    expect(JSON.parse(row.contribution_details)).toEqual({
      employee_pension_contribution: 36000,
      employer_pension_contribution: 45000,
      nhf_contribution: 5000,
      pit_contribution: 65120,
      nhis_employee_contribution: 0,
      nhis_employer_contribution: 0,
      employer_cost: 545000,
      tax_regime: 'nta2025',
    });
    expect(row.custom_contribution_records).toEqual([]);
    const missing = await as(ctx.app, acme).get(`/api/contributions/${MISSING_COMPANY}`);
    expect([missing.statusCode, missing.json()]).toEqual([404, { error: 'Company not found.' }]);
    expect((await as(ctx.app, acme).get(`/api/contributions/${stranger.id}`)).statusCode).toBe(403);
    expect(
      (await as(ctx.app, acme).get(`/api/contributions/${child.id}`))
        .json()
        .data.every((r: { employee_id: number }) => r.employee_id === childUser.id),
    ).toBe(true);
  });

  it('S4 and S5 are paged (page, per_page up to 1000, meta.has_more) and keep the documented answer for small companies', async () => {
    const company = await createCompany(ctx.db);
    const people = await createUsers(ctx.db, company.id, [{}, {}, {}]);
    const run = await postPaystubs(ctx.app, company, { paystubs: people.map((p) => paystubItem(p.id)) });
    expect(run.statusCode, run.body).toBe(201);
    const all = await as(ctx.app, company).get(`/api/contributions/${company.id}`);
    expect(all.json().data).toHaveLength(3);
    expect(all.json().meta).toEqual({ current_page: 1, per_page: 1000, has_more: false });
    const first = await as(ctx.app, company).get(`/api/contributions/${company.id}?per_page=2`);
    expect(first.json().data).toHaveLength(2);
    expect(first.json().meta).toEqual({ current_page: 1, per_page: 2, has_more: true });
    const second = await as(ctx.app, company).get(`/api/contributions/${company.id}?per_page=2&page=2`);
    expect(second.json().meta).toEqual({ current_page: 2, per_page: 2, has_more: false });
    expect([...first.json().data, ...second.json().data]).toEqual(all.json().data);
    for (const query of ['per_page=0', 'per_page=1001', 'per_page=abc', 'page=0', 'page=-1']) {
      const bad = await as(ctx.app, company).get(`/api/contributions/${company.id}?${query}`);
      const field = query.split('=')[0];
      const max = field === 'page' ? '1000000' : '1000';
      expect([bad.statusCode, bad.json()], query).toEqual([422, { error: `The ${field} must be an integer from 1 to ${max}.` }]);
    }
    const user = await as(ctx.app, company).get(`/api/contributions/user/${people[0].id}?per_page=1`);
    expect(user.json()).toMatchObject({ meta: { current_page: 1, per_page: 1, has_more: false } });
    expect(user.json().data).toHaveLength(1);
  });

  it('S5 lists one user; another company user or an unknown id is 404', async () => {
    const res = await as(ctx.app, acme).get(`/api/contributions/user/${staff[0].id}`);
    expect(res.json()).toMatchObject({ message: 'User contributions retrieved successfully' });
    expect(res.json().data.every((r: { employee_id: number }) => r.employee_id === staff[0].id)).toBe(true);
    for (const url of [
      `/api/contributions/user/${strangerUser.id}`,
      '/api/contributions/user/999999',
      '/api/contributions/user/abc',
      `/api/contributions/user/${childUser.id}`,
    ]) {
      const notFound = await as(ctx.app, acme).get(url);
      expect([notFound.statusCode, notFound.json()], url).toEqual([404, { error: 'User not found.' }]);
    }
    expect((await as(ctx.app, acme).get(`/api/contributions/user/${childUser.id}?company_id=${child.id}`)).statusCode).toBe(200);
  });
});
