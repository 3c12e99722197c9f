// HTTP tests of P1-P2 and S1-S10 against a real database (PGlite, or PostgreSQL with DATABASE_URL).
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { paystubItem, postPaystubs, setSettings, setUserTaxFacts } from '../../../test/helpers/payroll.js';
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

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (who: TestCompany, method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method, url, headers: { ...who.auth, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });

async function count(table: string, where = sql`TRUE`): Promise<number> {
  const [row] = await queryRows<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM ${sql.raw(table)} WHERE ${where}`);
  return row.n;
}

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db, { name: 'Acme Payroll' });
  child = await createCompany(ctx.db, { name: 'Acme Child', createdBy: acme.id });
  stranger = await createCompany(ctx.db, { name: 'Stranger Ltd' });
  staff = await createUsers(ctx.db, acme.id, [
    { firstName: 'Ada', lastName: 'Obi' },
    { firstName: 'Bola', lastName: 'Ade', userType: 'Contract' },
    { firstName: 'Chidi', lastName: 'Eze', paymentFrequency: 'weekly' },
    { firstName: 'Dayo', lastName: 'Bello' },
    { firstName: 'Efe', lastName: 'Okon' },
    { firstName: 'Funmi', lastName: 'Lawal' },
  ]);
  [strangerUser] = await createUsers(ctx.db, stranger.id, [{ firstName: 'Sam', lastName: 'Stranger' }]);
  [childUser] = await createUsers(ctx.db, child.id, [{ firstName: 'Kemi', lastName: 'Child' }]);
});
afterAll(() => ctx.close());

describe('S1-S3 contribution settings', () => {
  it('S1 lists the caller and every company below it, values as strings', async () => {
    const res = await call(acme, 'GET', '/api/contribution-settings');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Contribution settings retrieved successfully');
    expect(body.data.map((row: { company_id: number }) => row.company_id)).toEqual([acme.id, child.id]);
    expect(body.data[0]).toMatchObject({
      company_id: acme.id,
      tax_regime: 'auto',
      basic_percentage: '40',
      housing_percentage: '30',
      transport_percentage: '20',
      pension_enabled: 'true',
      employee_pension_rate: '8',
      employer_pension_rate: '10',
      nhf_enabled: 'true',
      nhf_rate: '2.5',
      nhis_enabled: 'false',
      nhis_employee_rate: '5',
      nhis_employer_rate: '10',
    });
    const own = await call(stranger, 'GET', '/api/contribution-settings');
    expect(own.json().data.map((row: { company_id: number }) => row.company_id)).toEqual([stranger.id]);
  });

  it('S2 reads own and child settings; 403, 404 and 400 as specified', async () => {
    const own = await call(acme, 'GET', `/api/contribution-settings/${acme.id}`);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ message: 'Contribution settings retrieved successfully', data: { company_id: acme.id } });
    expect((await call(acme, 'GET', `/api/contribution-settings/${child.id}`)).json().data.company_id).toBe(child.id);
    const forbidden = await call(acme, 'GET', `/api/contribution-settings/${stranger.id}`);
    expect(forbidden.statusCode).toBe(403);
    const upward = await call(child, 'GET', `/api/contribution-settings/${acme.id}`);
    expect(upward.statusCode).toBe(403);
    const missing = await call(acme, 'GET', `/api/contribution-settings/${MISSING_COMPANY}`);
    expect([missing.statusCode, missing.json()]).toEqual([404, { error: 'Contribution settings not found.' }]);
    const bad = await call(acme, 'GET', '/api/contribution-settings/abc');
    expect([bad.statusCode, bad.json()]).toEqual([400, { error: 'Company ID is required.' }]);
  });

  it('S3 validates each field and writes nothing on any bad value', async () => {
    const url = `/api/contribution-settings/${child.id}`;
    const cases: [unknown, number, string][] = [
      [{}, 400, 'No data provided for update.'],
      [{ id: 5, company_id: child.id }, 400, 'No data provided for update.'],
      [{ favourite_colour: 'blue' }, 422, 'The favourite_colour field is not a contribution setting.'],
      [{ basic_percentage: '101' }, 422, 'The basic_percentage must be a number from 0 to 100 with at most 4 decimal places.'],
      [{ basic_percentage: '-1' }, 422, 'The basic_percentage must be a number from 0 to 100 with at most 4 decimal places.'],
      [{ nhf_rate: 'abc' }, 422, 'The nhf_rate must be a number from 0 to 100 with at most 4 decimal places.'],
      [{ nhf_rate: '2.12345' }, 422, 'The nhf_rate must be a number from 0 to 100 with at most 4 decimal places.'],
      [{ tax_regime: 'flat' }, 422, 'The tax_regime must be one of: auto, pita, nta2025, none.'],
      [{ pension_enabled: 'maybe' }, 422, 'The pension_enabled must be "true" or "false".'],
      [{ nhis_enabled: null }, 422, 'The nhis_enabled must be a string.'],
      [
        { nhf_rate: '3', basic_percentage: '60' },
        422,
        'The basic_percentage, housing_percentage and transport_percentage must not add up to more than 100.',
      ],
    ];
    for (const [body, status, error] of cases) {
      const res = await call(acme, 'PATCH', url, body);
      expect([res.statusCode, res.json()], JSON.stringify(body)).toEqual([status, { error }]);
    }
    // The NHF rate of the last (rejected) body was not written.
    expect((await call(acme, 'GET', url)).json().data.nhf_rate).toBe('2.5');
    const ok = await call(acme, 'PATCH', url, { nhis_enabled: 'TRUE', nhf_rate: '3.50', tax_regime: 'PITA', basic_percentage: 45 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      message: 'Contribution settings updated successfully',
      data: { company_id: child.id, nhis_enabled: 'true', nhf_rate: '3.5', tax_regime: 'pita', basic_percentage: '45' },
    });
    expect((await call(acme, 'PATCH', `/api/contribution-settings/${stranger.id}`, { nhf_rate: '1' })).statusCode).toBe(403);
    const missing = await call(acme, 'PATCH', `/api/contribution-settings/${MISSING_COMPANY}`, { nhf_rate: '1' });
    expect([missing.statusCode, missing.json()]).toEqual([404, { error: 'Contribution settings not found.' }]);
    await call(acme, 'PATCH', url, { nhis_enabled: 'false', nhf_rate: '2.5', tax_regime: 'auto', basic_percentage: '40' });
  });
});

describe('S6-S10 custom contributions', () => {
  const base = {
    name: 'Staff welfare',
    type: 'percentage',
    apply_to: 'gross_pay',
    responsibility: 'employee',
    employee_value: 2,
    frequency: 'per_paystub',
  };

  it('S8 creates with targets by user type and by company or personal e-mail', async () => {
    const res = await call(acme, 'POST', `/api/custom-contributions/${acme.id}`, {
      ...base,
      name: 'Targeted fund',
      responsibility: 'both',
      employer_value: 1.5,
      user_types: ['contract'],
      users: [staff[3].email, staff[4].personalEmail.toUpperCase()],
      is_active: false,
    });
    expect(res.statusCode).toBe(201);
    const { message, data } = res.json();
    expect(message).toBe('Custom contribution created successfully');
    expect(data).toMatchObject({
      company_id: acme.id,
      name: 'Targeted fund',
      type: 'percentage',
      apply_to: 'gross_pay',
      employee_responsibility: true,
      employer_responsibility: true,
      employee_value: 2,
      employer_value: 1.5,
      frequency: 'per_paystub',
      is_active: false,
    });
    expect(data.targets).toHaveLength(3);
    const typeTarget = data.targets.find((t: { user_type_id: number | null }) => t.user_type_id !== null);
    expect(typeTarget).toMatchObject({ custom_contribution_id: data.id, user_id: null });
    expect(
      data.targets
        .filter((t: { user_id: number | null }) => t.user_id !== null)
        .map((t: { user_id: number }) => t.user_id)
        .sort(),
    ).toEqual([staff[3].id, staff[4].id].sort());
    expect(data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it('S8 refuses every invalid body with 422 {error} and writes nothing', async () => {
    const before = await count('custom_contributions');
    const url = `/api/custom-contributions/${acme.id}`;
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, name: undefined }, 'The name field is required.'],
      [{ ...base, type: 'ratio' }, 'The selected type is invalid.'],
      [{ ...base, apply_to: 'taxable' }, 'The selected apply to is invalid.'],
      [{ ...base, responsibility: 'nobody' }, 'The selected responsibility is invalid.'],
      [{ ...base, frequency: 'yearly' }, 'The selected frequency is invalid.'],
      [{ ...base, employee_value: undefined }, 'The employee_value field is required for this responsibility.'],
      [{ ...base, responsibility: 'both' }, 'The employer_value field is required for this responsibility.'],
      [{ ...base, employee_value: 100.01 }, 'The employee_value must be between 0 and 100 for a percentage.'],
      [{ ...base, type: 'amount', employee_value: -5 }, 'The employee_value must be at least 0.'],
      [{ ...base, type: 'amount', employee_value: 1.234 }, 'The employee_value must be a number with at most 2 decimal places.'],
      [{ ...base, name: 'TARGETED FUND' }, 'The name has already been taken.'],
      [{ ...base, user_types: ['Astronaut'] }, 'The user type "Astronaut" does not exist for this company.'],
      [{ ...base, users: ['nobody@nowhere.test'] }, 'No user with the e-mail "nobody@nowhere.test" exists in this company.'],
      [{ ...base, users: [strangerUser.email] }, `No user with the e-mail "${strangerUser.email}" exists in this company.`],
    ];
    for (const [body, error] of cases) {
      const res = await call(acme, 'POST', url, body);
      expect([res.statusCode, res.json()], JSON.stringify(body)).toEqual([422, { error }]);
    }
    expect(await count('custom_contributions')).toBe(before);
    expect((await call(acme, 'POST', `/api/custom-contributions/${stranger.id}`, base)).statusCode).toBe(403);
    const missing = await call(acme, 'POST', `/api/custom-contributions/${MISSING_COMPANY}`, base);
    expect([missing.statusCode, missing.json()]).toEqual([404, { error: 'Company not found.' }]);
  });

  it('S6 lists with targets and decimal strings; S7 reads one; another company sees 404', async () => {
    const list = await call(acme, 'GET', `/api/custom-contributions/${acme.id}`);
    expect(list.statusCode).toBe(200);
    expect(list.json().message).toBe('Custom contributions retrieved successfully');
    const fund = list.json().data.find((row: { name: string }) => row.name === 'Targeted fund');
    expect(fund).toMatchObject({ employee_value: '2.00', employer_value: '1.50' });
    expect(fund.targets).toHaveLength(3);
    const one = await call(acme, 'GET', `/api/custom-contributions/${acme.id}/${fund.id}`);
    expect(one.json()).toMatchObject({
      message: 'Custom contribution retrieved successfully',
      data: { id: fund.id, name: 'Targeted fund' },
    });
    // Through the child's path the parent's contribution does not exist.
    for (const url of [
      `/api/custom-contributions/${child.id}/${fund.id}`,
      `/api/custom-contributions/${acme.id}/999999`,
      `/api/custom-contributions/${acme.id}/abc`,
    ]) {
      const res = await call(acme, 'GET', url);
      expect([res.statusCode, res.json()]).toEqual([404, { error: 'Custom contribution not found.' }]);
    }
    expect((await call(stranger, 'GET', `/api/custom-contributions/${acme.id}/${fund.id}`)).statusCode).toBe(403);
    // Another company's contribution id through our own path: 404 on read, update and delete, nothing changes.
    const theirs = (await call(stranger, 'POST', `/api/custom-contributions/${stranger.id}`, { ...base, name: 'Theirs' })).json().data;
    const viaUs = `/api/custom-contributions/${acme.id}/${theirs.id}`;
    expect((await call(acme, 'GET', viaUs)).json()).toEqual({ error: 'Custom contribution not found.' });
    expect((await call(acme, 'PUT', viaUs, { employee_value: 9 })).json()).toEqual({
      error: 'The company or contribution could not be found.',
    });
    expect((await call(acme, 'DELETE', viaUs)).json()).toEqual({ error: 'Custom contribution not found.' });
    expect((await call(stranger, 'GET', `/api/custom-contributions/${stranger.id}/${theirs.id}`)).json().data).toMatchObject({
      employee_value: '2.00',
    });
    expect(
      (await call(stranger, 'GET', `/api/custom-contributions/${stranger.id}`)).json().data.map((row: { name: string }) => row.name),
    ).toEqual(['Theirs']);
  });

  it('S9 updates, replaces targets, re-validates the merged result; 404 message', async () => {
    const created = (
      await call(acme, 'POST', `/api/custom-contributions/${acme.id}`, { ...base, name: 'To update', users: [staff[0].email] })
    ).json().data;
    const url = `/api/custom-contributions/${acme.id}/${created.id}`;
    const put = await call(acme, 'PUT', url, { user_types: ['Full-time', 'Intern'], employee_value: 3 });
    expect(put.statusCode).toBe(200);
    expect(put.json().message).toBe('Custom contribution updated successfully');
    expect(put.json().data).toMatchObject({ employee_value: '3.00', name: 'To update' });
    expect(put.json().data.targets.map((t: { user_id: number | null }) => t.user_id)).toEqual([null, null]);
    const patch = await call(acme, 'PATCH', url, { responsibility: 'employer', employer_value: 500, type: 'amount' });
    expect(patch.json().data).toMatchObject({
      employee_responsibility: false,
      employer_responsibility: true,
      employee_value: null,
      employer_value: '500.00',
    });
    expect(patch.json().data.targets).toHaveLength(2);
    const bad = await call(acme, 'PATCH', url, { responsibility: 'both' });
    expect([bad.statusCode, bad.json()]).toEqual([422, { error: 'The employee_value field is required for this responsibility.' }]);
    const dup = await call(acme, 'PATCH', url, { name: 'targeted FUND' });
    expect([dup.statusCode, dup.json()]).toEqual([422, { error: 'The name has already been taken.' }]);
    const clear = await call(acme, 'PATCH', url, { users: [] });
    expect(clear.json().data.targets).toEqual([]);
    for (const target of [`/api/custom-contributions/${acme.id}/999999`, `/api/custom-contributions/${child.id}/${created.id}`]) {
      const res = await call(acme, 'PATCH', target, { employee_value: 1 });
      expect([res.statusCode, res.json()]).toEqual([404, { error: 'The company or contribution could not be found.' }]);
    }
    const del = await call(acme, 'DELETE', url);
    expect([del.statusCode, del.json()]).toEqual([200, { message: 'Custom contribution deleted successfully' }]);
    const again = await call(acme, 'DELETE', url);
    expect([again.statusCode, again.json()]).toEqual([404, { error: 'Custom contribution not found.' }]);
    expect(await count('custom_contribution_targets', sql`custom_contribution_id = ${created.id}`)).toBe(0);
  });
});

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
    const malformed = await ctx.app.inject({
      method: 'POST',
      url: '/api/paystubs',
      headers: { ...acme.auth, 'content-type': 'application/json' },
      payload: '{"paystubs": [',
    });
    expect([malformed.statusCode, malformed.json()]).toEqual([400, { error: 'Malformed JSON body.' }]);
    const anonymous = await ctx.app.inject({ method: 'POST', url: '/api/paystubs', payload: { paystubs: [item] } });
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
      await call(child, 'POST', `/api/custom-contributions/${child.id}`, {
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
    await call(child, 'DELETE', `/api/custom-contributions/${child.id}/${loan.id}`);
  });

  it('applies custom contributions by target, one_time once on the earliest period, records kept after delete', async () => {
    const company = await createCompany(ctx.db, { name: 'Customs Co' });
    const people = await createUsers(ctx.db, company.id, [
      { firstName: 'Uno' },
      { firstName: 'Dos', userType: 'Contract' },
      { firstName: 'Tres' },
    ]);
    const create = async (body: Record<string, unknown>) =>
      (await call(company, 'POST', `/api/custom-contributions/${company.id}`, body)).json().data;
    const everyone = await create({
      name: 'Welfare',
      type: 'percentage',
      apply_to: 'gross_pay',
      responsibility: 'employee',
      employee_value: 2,
      frequency: 'per_paystub',
    });
    const contract = await create({
      name: 'Contractor levy',
      type: 'percentage',
      apply_to: 'net_pay',
      responsibility: 'both',
      employee_value: 5,
      employer_value: 1,
      frequency: 'per_paystub',
      user_types: ['Contract'],
    });
    // Quotes, commas, braces, a backslash and Yoruba diacritics survive the batch insert's array literal.
    const KIT = 'Kit "Ọ̀kan", {x} \\ 1';
    const signOn = await create({
      name: KIT,
      type: 'amount',
      apply_to: 'gross_pay',
      responsibility: 'employee',
      employee_value: 2500.5,
      frequency: 'one_time',
      users: [people[0].personalEmail],
    });
    await create({
      name: 'Paused',
      type: 'amount',
      apply_to: 'gross_pay',
      responsibility: 'employee',
      employee_value: 1,
      frequency: 'per_paystub',
      is_active: false,
    });

    const res = await postPaystubs(ctx.app, company, {
      paystubs: [
        paystubItem(people[0].id, { pay_period_start: '2025-02-01', pay_period_end: '2025-02-28' }),
        paystubItem(people[0].id, { pay_period_start: '2025-01-01', pay_period_end: '2025-01-31' }),
        paystubItem(people[1].id, { pay_period_start: '2025-03-01', pay_period_end: '2025-03-31' }),
      ],
    });
    expect(res.statusCode).toBe(201);
    const [feb, jan, dos] = res.json().created_paystubs;
    const names = (row: { custom_contributions: { name: string }[] }) => row.custom_contributions.map((record) => record.name);
    expect(names(jan)).toEqual(['Welfare', KIT]);
    expect(names(feb)).toEqual(['Welfare']);
    expect(names(dos)).toEqual(['Welfare', 'Contractor levy']);
    // PITA, T 500,000: tax 66,794.67, net before customs 392,205.33 (engine golden case "top band").
    expect(jan.custom_contributions[1]).toMatchObject({
      employee_contribution: 2500.5,
      employer_contribution: 0,
      custom_contribution_id: signOn.id,
      user_id: people[0].id,
    });
    expect(jan.paystub).toMatchObject({ tax_withheld: 66794.67, other_deductions: 12500.5, net_pay: 379704.83 });
    expect(dos.custom_contributions[1]).toMatchObject({ employee_contribution: 19610.27, employer_contribution: 3922.05 });
    expect(dos.paystub).toMatchObject({ other_deductions: 29610.27, net_pay: 362595.06 });

    const later = await postPaystubs(ctx.app, company, {
      paystubs: [paystubItem(people[0].id, { pay_period_start: '2024-12-01', pay_period_end: '2024-12-31' })],
    });
    expect(names(later.json().created_paystubs[0])).toEqual(['Welfare']); // one_time already applied

    expect((await call(company, 'DELETE', `/api/custom-contributions/${company.id}/${everyone.id}`)).statusCode).toBe(200);
    expect(await count('custom_contribution_records', sql`name = 'Welfare' AND company_id = ${company.id}`)).toBe(4);
    const s5 = await call(company, 'GET', `/api/contributions/user/${people[0].id}`);
    expect(
      s5
        .json()
        .data[0].custom_contribution_records.map((r: { name: string; custom_contribution_id: number | null }) => [
          r.name,
          r.custom_contribution_id,
        ]),
    ).toEqual([
      ['Welfare', null],
      [KIT, signOn.id],
    ]);
    expect(contract.targets).toHaveLength(1);
  });

  it('two concurrent runs with the same items create each paystub once', async () => {
    const body = {
      paystubs: [staff[0], staff[1], staff[3]].map((user) => ({
        ...paystubItem(user.id, { pay_period_start: '2026-07-01', pay_period_end: '2026-07-31' }),
        id: user.id, // an integer id is accepted too
      })),
    };
    const [a, b] = await Promise.all([postPaystubs(ctx.app, acme, body), postPaystubs(ctx.app, acme, body)]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    const createdCount = a.json().created_paystubs.length + b.json().created_paystubs.length;
    expect(createdCount).toBe(3);
    const failures = [...a.json().failed_paystubs, ...b.json().failed_paystubs];
    expect(failures).toHaveLength(3);
    for (const failure of failures)
      expect(failure.errors).toEqual({ pay_period_start: ['A paystub for this user and pay period already exists.'] });
    expect(await count('paystubs', sql`pay_period_start = '2026-07-01' AND company_id = ${acme.id}`)).toBe(3);
    const bad = await postPaystubs(ctx.app, acme, { company_id: 'abc', paystubs: body.paystubs });
    expect(bad.statusCode).toBe(400);
  });

  it('Idempotency-Key: a retried run creates nothing twice', async () => {
    const body = { paystubs: [paystubItem(staff[5].id, { pay_period_start: '2026-06-01', pay_period_end: '2026-06-30' })] };
    const headers = { 'idempotency-key': 'run-2026-06' };
    const first = await postPaystubs(ctx.app, acme, body, headers);
    const second = await postPaystubs(ctx.app, acme, body, headers);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    expect(second.json().failed_paystubs).toEqual([]);
    expect(await count('paystubs', sql`user_id = ${staff[5].id} AND pay_period_start = '2026-06-01'`)).toBe(1);
    const other = await postPaystubs(ctx.app, acme, { paystubs: [paystubItem(staff[5].id)] }, headers);
    expect([other.statusCode, other.json()]).toEqual([409, { error: 'Idempotency key reused with a different request.' }]);
  });
});

describe('P1 GET /api/paystubs', () => {
  it('lists newest first with the exact Laravel paginator and filters that combine', async () => {
    const total = await count('paystubs', sql`company_id = ${acme.id}`);
    const res = await call(acme, 'GET', '/api/paystubs?per_page=2&page=2');
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
    const all = (await call(acme, 'GET', '/api/paystubs?per_page=100')).json().data.data;
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
    const filtered = await call(acme, 'GET', `/api/paystubs?user_id=${staff[0].id}&transaction_id=${txn}&status=unpaid`);
    const page = filtered.json().data;
    expect(page.data.map((p: { id: number }) => p.id)).toEqual([item.id]);
    expect(page.first_page_url).toBe(`http://payroll.test/api/paystubs?user_id=${staff[0].id}&transaction_id=${txn}&status=unpaid&page=1`);
    expect(page.next_page_url).toBeNull();
    expect((await call(acme, 'GET', `/api/paystubs?user_id=${staff[0].id}&status=paid`)).json().data).toMatchObject({
      total: 0,
      from: null,
      to: null,
      last_page: 1,
      data: [],
    });
  });

  it('keeps tenants apart and validates the query', async () => {
    const strangerList = (await call(stranger, 'GET', `/api/paystubs?user_id=${staff[0].id}`)).json().data;
    expect(strangerList.total).toBe(0);
    const childList = (await call(acme, 'GET', `/api/paystubs?company_id=${child.id}`)).json().data;
    expect(childList.data.every((p: { company_id: number }) => p.company_id === child.id)).toBe(true);
    expect(childList.first_page_url).toBe(`http://payroll.test/api/paystubs?company_id=${child.id}&page=1`);
    const forbidden = await call(acme, 'GET', `/api/paystubs?company_id=${stranger.id}`);
    expect([forbidden.statusCode, forbidden.json()]).toEqual([
      403,
      { error: "You do not have permission to access this company's paystubs." },
    ]);
    const missing = await call(acme, 'GET', `/api/paystubs?company_id=${MISSING_COMPANY}`);
    expect([missing.statusCode, missing.json()]).toEqual([404, { error: 'Paystub or company not found.' }]);
    for (const query of ['per_page=101', 'per_page=0', 'page=0', 'user_id=abc']) {
      const res = await call(acme, 'GET', `/api/paystubs?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(typeof res.json().error).toBe('string');
    }
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/paystubs' });
    expect([anonymous.statusCode, anonymous.json()]).toEqual([401, { error: 'Unauthorized' }]);
  });
});

describe('S4-S5 contributions', () => {
  it('S4 lists a company contribution records with contribution_details as a JSON string', async () => {
    const res = await call(acme, 'GET', `/api/contributions/${acme.id}`);
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
    const missing = await call(acme, 'GET', `/api/contributions/${MISSING_COMPANY}`);
    expect([missing.statusCode, missing.json()]).toEqual([404, { error: 'Company not found.' }]);
    expect((await call(acme, 'GET', `/api/contributions/${stranger.id}`)).statusCode).toBe(403);
    expect(
      (await call(acme, 'GET', `/api/contributions/${child.id}`))
        .json()
        .data.every((r: { employee_id: number }) => r.employee_id === childUser.id),
    ).toBe(true);
  });

  it('S5 lists one user; another company user or an unknown id is 404', async () => {
    const res = await call(acme, 'GET', `/api/contributions/user/${staff[0].id}`);
    expect(res.json()).toMatchObject({ message: 'User contributions retrieved successfully' });
    expect(res.json().data.every((r: { employee_id: number }) => r.employee_id === staff[0].id)).toBe(true);
    for (const url of [
      `/api/contributions/user/${strangerUser.id}`,
      '/api/contributions/user/999999',
      '/api/contributions/user/abc',
      `/api/contributions/user/${childUser.id}`,
    ]) {
      const notFound = await call(acme, 'GET', url);
      expect([notFound.statusCode, notFound.json()], url).toEqual([404, { error: 'User not found.' }]);
    }
    expect((await call(acme, 'GET', `/api/contributions/user/${childUser.id}?company_id=${child.id}`)).statusCode).toBe(200);
  });
});
