// HTTP tests of S1-S3 (contribution settings) and S6-S10 (custom contributions) against a real
// database (PGlite, or PostgreSQL with DATABASE_URL). Paystubs and S4-S5 are in payroll.test.ts.
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import type { createUsers, TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { countRows, createPayrollWorld } from '../../../test/helpers/payroll.js';

let ctx: TestContext;
let acme: TestCompany;
let child: TestCompany;
let stranger: TestCompany;
let staff: Awaited<ReturnType<typeof createUsers>>;
let strangerUser: Awaited<ReturnType<typeof createUsers>>[number];
const MISSING_COMPANY = 99_999_999;

const count = (table: string, where?: SQL) => countRows(ctx.db, table, where);

beforeAll(async () => {
  ctx = await createTestApp();
  ({ acme, staff, child, stranger, strangerUser } = await createPayrollWorld(ctx.db));
});
afterAll(() => ctx.close());

describe('S1-S3 contribution settings', () => {
  it('S1 lists the caller and every company below it, values as strings', async () => {
    const res = await as(ctx.app, acme).get('/api/contribution-settings');
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
    const own = await as(ctx.app, stranger).get('/api/contribution-settings');
    expect(own.json().data.map((row: { company_id: number }) => row.company_id)).toEqual([stranger.id]);
  });

  it('S2 reads own and child settings; 403, 404 and 400 as specified', async () => {
    const own = await as(ctx.app, acme).get(`/api/contribution-settings/${acme.id}`);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ message: 'Contribution settings retrieved successfully', data: { company_id: acme.id } });
    expect((await as(ctx.app, acme).get(`/api/contribution-settings/${child.id}`)).json().data.company_id).toBe(child.id);
    const forbidden = await as(ctx.app, acme).get(`/api/contribution-settings/${stranger.id}`);
    expect(forbidden.statusCode).toBe(403);
    const upward = await as(ctx.app, child).get(`/api/contribution-settings/${acme.id}`);
    expect(upward.statusCode).toBe(403);
    const missing = await as(ctx.app, acme).get(`/api/contribution-settings/${MISSING_COMPANY}`);
    expect([missing.statusCode, missing.json()]).toEqual([404, { error: 'Contribution settings not found.' }]);
    const bad = await as(ctx.app, acme).get('/api/contribution-settings/abc');
    expect([bad.statusCode, bad.json()]).toEqual([400, { error: 'Company ID is required.' }]);
  });

  it('S3 refuses Object.prototype names (toString, hasOwnProperty, constructor, valueOf) as unknown settings', async () => {
    const url = `/api/contribution-settings/${child.id}`;
    const before = (await as(ctx.app, acme).get(url)).json().data;
    for (const name of ['toString', 'hasOwnProperty', 'constructor', 'valueOf', '__defineGetter__']) {
      const res = await as(ctx.app, acme).patch(url, { [name]: '1' });
      expect([res.statusCode, res.json()], name).toEqual([422, { error: `The ${name} field is not a contribution setting.` }]);
    }
    expect((await as(ctx.app, acme).get(url)).json().data).toEqual(before);
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
      const res = await as(ctx.app, acme).patch(url, body);
      expect([res.statusCode, res.json()], JSON.stringify(body)).toEqual([status, { error }]);
    }
    // The NHF rate of the last (rejected) body was not written.
    expect((await as(ctx.app, acme).get(url)).json().data.nhf_rate).toBe('2.5');
    const ok = await as(ctx.app, acme).patch(url, { nhis_enabled: 'TRUE', nhf_rate: '3.50', tax_regime: 'PITA', basic_percentage: 45 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      message: 'Contribution settings updated successfully',
      data: { company_id: child.id, nhis_enabled: 'true', nhf_rate: '3.5', tax_regime: 'pita', basic_percentage: '45' },
    });
    expect((await as(ctx.app, acme).patch(`/api/contribution-settings/${stranger.id}`, { nhf_rate: '1' })).statusCode).toBe(403);
    const missing = await as(ctx.app, acme).patch(`/api/contribution-settings/${MISSING_COMPANY}`, { nhf_rate: '1' });
    expect([missing.statusCode, missing.json()]).toEqual([404, { error: 'Contribution settings not found.' }]);
    await as(ctx.app, acme).patch(url, { nhis_enabled: 'false', nhf_rate: '2.5', tax_regime: 'auto', basic_percentage: '40' });
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
    const res = await as(ctx.app, acme).post(`/api/custom-contributions/${acme.id}`, {
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
      const res = await as(ctx.app, acme).post(url, body);
      expect([res.statusCode, res.json()], JSON.stringify(body)).toEqual([422, { error }]);
    }
    expect(await count('custom_contributions')).toBe(before);
    expect((await as(ctx.app, acme).post(`/api/custom-contributions/${stranger.id}`, base)).statusCode).toBe(403);
    const missing = await as(ctx.app, acme).post(`/api/custom-contributions/${MISSING_COMPANY}`, base);
    expect([missing.statusCode, missing.json()]).toEqual([404, { error: 'Company not found.' }]);
  });

  it('S6 lists with targets and decimal strings; S7 reads one; another company sees 404', async () => {
    const list = await as(ctx.app, acme).get(`/api/custom-contributions/${acme.id}`);
    expect(list.statusCode).toBe(200);
    expect(list.json().message).toBe('Custom contributions retrieved successfully');
    const fund = list.json().data.find((row: { name: string }) => row.name === 'Targeted fund');
    expect(fund).toMatchObject({ employee_value: '2.00', employer_value: '1.50' });
    expect(fund.targets).toHaveLength(3);
    const one = await as(ctx.app, acme).get(`/api/custom-contributions/${acme.id}/${fund.id}`);
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
      const res = await as(ctx.app, acme).get(url);
      expect([res.statusCode, res.json()]).toEqual([404, { error: 'Custom contribution not found.' }]);
    }
    expect((await as(ctx.app, stranger).get(`/api/custom-contributions/${acme.id}/${fund.id}`)).statusCode).toBe(403);
    // Another company's contribution id through our own path: 404 on read, update and delete, nothing changes.
    const theirs = (await as(ctx.app, stranger).post(`/api/custom-contributions/${stranger.id}`, { ...base, name: 'Theirs' })).json().data;
    const viaUs = `/api/custom-contributions/${acme.id}/${theirs.id}`;
    expect((await as(ctx.app, acme).get(viaUs)).json()).toEqual({ error: 'Custom contribution not found.' });
    expect((await as(ctx.app, acme).put(viaUs, { employee_value: 9 })).json()).toEqual({
      error: 'The company or contribution could not be found.',
    });
    expect((await as(ctx.app, acme).delete(viaUs)).json()).toEqual({ error: 'Custom contribution not found.' });
    expect((await as(ctx.app, stranger).get(`/api/custom-contributions/${stranger.id}/${theirs.id}`)).json().data).toMatchObject({
      employee_value: '2.00',
    });
    expect(
      (await as(ctx.app, stranger).get(`/api/custom-contributions/${stranger.id}`)).json().data.map((row: { name: string }) => row.name),
    ).toEqual(['Theirs']);
  });

  it('S9 updates, replaces targets, re-validates the merged result; 404 message', async () => {
    const created = (
      await as(ctx.app, acme).post(`/api/custom-contributions/${acme.id}`, { ...base, name: 'To update', users: [staff[0].email] })
    ).json().data;
    const url = `/api/custom-contributions/${acme.id}/${created.id}`;
    const put = await as(ctx.app, acme).put(url, { user_types: ['Full-time', 'Intern'], employee_value: 3 });
    expect(put.statusCode).toBe(200);
    expect(put.json().message).toBe('Custom contribution updated successfully');
    expect(put.json().data).toMatchObject({ employee_value: '3.00', name: 'To update' });
    expect(put.json().data.targets.map((t: { user_id: number | null }) => t.user_id)).toEqual([null, null]);
    const patch = await as(ctx.app, acme).patch(url, { responsibility: 'employer', employer_value: 500, type: 'amount' });
    expect(patch.json().data).toMatchObject({
      employee_responsibility: false,
      employer_responsibility: true,
      employee_value: null,
      employer_value: '500.00',
    });
    expect(patch.json().data.targets).toHaveLength(2);
    const bad = await as(ctx.app, acme).patch(url, { responsibility: 'both' });
    expect([bad.statusCode, bad.json()]).toEqual([422, { error: 'The employee_value field is required for this responsibility.' }]);
    const dup = await as(ctx.app, acme).patch(url, { name: 'targeted FUND' });
    expect([dup.statusCode, dup.json()]).toEqual([422, { error: 'The name has already been taken.' }]);
    const clear = await as(ctx.app, acme).patch(url, { users: [] });
    expect(clear.json().data.targets).toEqual([]);
    for (const target of [`/api/custom-contributions/${acme.id}/999999`, `/api/custom-contributions/${child.id}/${created.id}`]) {
      const res = await as(ctx.app, acme).patch(target, { employee_value: 1 });
      expect([res.statusCode, res.json()]).toEqual([404, { error: 'The company or contribution could not be found.' }]);
    }
    const del = await as(ctx.app, acme).delete(url);
    expect([del.statusCode, del.json()]).toEqual([200, { message: 'Custom contribution deleted successfully' }]);
    const again = await as(ctx.app, acme).delete(url);
    expect([again.statusCode, again.json()]).toEqual([404, { error: 'Custom contribution not found.' }]);
    expect(await count('custom_contribution_targets', sql`custom_contribution_id = ${created.id}`)).toBe(0);
  });
});
