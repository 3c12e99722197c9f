// GET /api/annual-returns/{year} (JSON, CSV, XLSX) and /api/annual-returns/{year}/itf over runs paid
// in March and April 2026; year rules; scopes of the four routes; tenant isolation.
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { expectTenantIsolation } from '../../../test/helpers/isolation.js';
import { buildRemittanceWorld, type RemittanceWorld } from '../../../test/helpers/remittances.js';
import { queryRows, sql } from '../../db/client.js';
import { issueToken } from '../../platform/auth/tokens.js';
import { annualReliefs } from './annual-returns.rules.js';
import { parseYear } from './annual-returns.service.js';

let ctx: TestContext;
let world: RemittanceWorld;
const get = (url: string) => as(ctx.app, world.company).get(url);
/**
 * A token of the world's company issued for one test. A company has one live token, and issuing one
 * revokes it: after the scopes test below issues a scoped token, the world's own token answers 401.
 */
async function freshCaller() {
  const { token } = await issueToken(ctx.db, world.company.id, ['all']);
  return { auth: { authorization: `Bearer ${token}` } };
}

/** The 2026 paid paystubs of the world's Lagos staff, per user, in kobo. */
const lagosYear = () =>
  queryRows<{ user_id: number; gross: string; tax: string; deductions: string; months: number }>(
    ctx.db,
    sql`SELECT p.user_id, sum(p.gross_pay * 100)::bigint::text AS gross, sum(p.tax_withheld * 100)::bigint::text AS tax,
          sum((p.pension_contribution + p.nhf_contribution + p.nhis_contribution + p.other_deductions) * 100)::bigint::text AS deductions,
          count(*)::int AS months
        FROM paystubs p JOIN payroll_runs r ON r.id = p.transaction_id
        WHERE p.company_id = ${world.company.id} AND p.status = 'paid' AND p.state_of_residence = 'LA' AND r.status = 'paid'
        GROUP BY p.user_id ORDER BY p.user_id`,
  );

beforeAll(async () => {
  ctx = await createTestApp({ sandboxTransferDelaySeconds: 0 });
  world = await buildRemittanceWorld(ctx.app, ctx.db);
});
afterAll(() => ctx?.close());

describe('GET /api/annual-returns/{year}', () => {
  it('JSON: one row per employee paid in the year in the state, figures summing to the paystubs', async () => {
    const res = await get('/api/annual-returns/2026?state=LA');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      message: 'Annual return retrieved successfully',
      year: 2026,
      state: 'LA',
      authority: 'Lagos State Internal Revenue Service',
      employer_tax_id: 'LIRS-55501',
      due_date: '2027-01-31',
      employees: 3,
    });
    const expected = await lagosYear();
    const rows = [...body.data].sort((a, b) => a.user_id - b.user_id);
    expect(rows.map((row) => [row.user_id, row.gross_emoluments, row.tax_deducted, row.total_deductions, row.months_employed])).toEqual(
      expected.map((row) => [row.user_id, Number(row.gross) / 100, Number(row.tax) / 100, Number(row.deductions) / 100, 2]),
    );
    const tax = expected.reduce((sum, row) => sum + BigInt(row.tax), 0n);
    expect(body.totals.tax_deducted).toBe(Number(tax) / 100);
    expect(Object.keys(rows[0])).toEqual([
      'user_id',
      'employee_id',
      'surname',
      'other_names',
      'tax_id',
      'nin',
      'months_employed',
      'exit_date',
      'gross_emoluments',
      'basic',
      'housing',
      'transport',
      'other_allowances',
      'pension',
      'nhf',
      'nhis',
      'other_deductions',
      'total_deductions',
      'rent_relief',
      'life_assurance',
      'pension_nhf_relief',
      'chargeable_income',
      'tax_deducted',
      'opening_gross',
      'opening_taxable',
      'opening_tax',
      'opening_pension',
      'opening_nhf',
      'opening_nhis',
      'opening_months',
    ]);
  });

  it('reliefs per employee: rent relief (20 %, at most ₦500,000), life assurance, pension and NHF, the chargeable income left', async () => {
    const [first] = await lagosYear();
    const [paid] = await queryRows<{ taxable: string; pension: string; nhf: string; nhis: string }>(
      ctx.db,
      sql`SELECT sum(p.taxable_income + p.taxable_items)::text AS taxable, sum(p.pension_contribution)::text AS pension,
                 sum(p.nhf_contribution)::text AS nhf, sum(p.nhis_contribution)::text AS nhis
          FROM paystubs p JOIN payroll_runs r ON r.id = p.transaction_id
          WHERE p.company_id = ${world.company.id} AND p.status = 'paid' AND p.state_of_residence = 'LA' AND r.status = 'paid'
            AND p.user_id = ${first.user_id}`,
    );
    const kobo = (text: string) => BigInt(Math.round(Number(text) * 100));
    const rowOf = async () =>
      (await get('/api/annual-returns/2026?state=LA')).json().data.find((row: { user_id: number }) => row.user_id === first.user_id);
    // Declared figures are read from the user when the return is produced (like tax_id).
    await ctx.db.execute(sql`UPDATE users SET annual_rent_paid = 1000000, life_assurance_premium = 50000 WHERE id = ${first.user_id}`);
    const relief = kobo(paid.pension) + kobo(paid.nhf);
    const chargeable = (rent: bigint) => {
      const left = kobo(paid.taxable) - relief - kobo(paid.nhis) - 5_000_000n - rent;
      return Number(left > 0n ? left : 0n) / 100;
    };
    expect(await rowOf()).toMatchObject({
      rent_relief: 200000,
      life_assurance: 50000,
      pension_nhf_relief: Number(relief) / 100,
      chargeable_income: chargeable(20_000_000n),
    });
    // 20 % of ₦3,000,000 is ₦600,000: capped at ₦500,000.
    await ctx.db.execute(sql`UPDATE users SET annual_rent_paid = 3000000 WHERE id = ${first.user_id}`);
    expect(await rowOf()).toMatchObject({ rent_relief: 500000, chargeable_income: chargeable(50_000_000n) });
    const csv = parse((await get('/api/annual-returns/2026?state=LA&format=csv')).body, { relax_column_count: true }) as string[][];
    const titles = csv.find((row) => row[0] === 'S/N')!;
    expect(titles.slice(-5)).toEqual(['Rent relief', 'Life assurance', 'Pension and NHF relief', 'Chargeable income', 'Tax deducted']);
    await ctx.db.execute(sql`UPDATE users SET annual_rent_paid = NULL, life_assurance_premium = NULL WHERE id = ${first.user_id}`);
  });

  it('before 2026 (PITA): no rent relief and no chargeable income on the return', () => {
    const row = { annual_rent_paid: '1000000.00', life_assurance_premium: '1000.00', employee_pension: '10.00', nhf: '1.00' };
    expect(annualReliefs(row as never, 2025)).toEqual({
      rentRelief: 0n,
      lifeAssurance: 100_000n,
      pensionNhfRelief: 1_100n,
      chargeableIncome: null,
    });
  });

  it('CSV and XLSX: the header block and the same totals', async () => {
    const csv = await get('/api/annual-returns/2026?state=la&format=csv');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="annual-return-LA-2026.csv"');
    const rows = parse(csv.body, { relax_column_count: true }) as string[][];
    expect(rows.slice(1, 5)).toEqual([
      ['Employer', 'Remit & Co'],
      ['Employer tax ID (Lagos State Internal Revenue Service)', 'LIRS-55501'],
      ['Year', '2026'],
      ['Due date', '2027-01-31'],
    ]);
    const tax = (await lagosYear()).reduce((sum, row) => sum + BigInt(row.tax), 0n);
    expect(rows.at(-1)?.at(-1)).toBe((Number(tax) / 100).toFixed(2));
    expect(rows.some((row) => row.includes("'@Sum"))).toBe(true);
    const xlsx = await get('/api/annual-returns/2026?state=LA&format=xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as never);
    const last = workbook.worksheets[0].lastRow?.values as number[];
    expect(BigInt(Math.round((last.at(-1) as number) * 100))).toBe(tax);
  });

  it.each([
    ['/api/annual-returns/2026', 'state'],
    ['/api/annual-returns/2026?state=XX', 'state'],
    ['/api/annual-returns/2026?state=LA&format=pdf', 'format'],
    ['/api/annual-returns/2099?state=LA', 'year'],
    ['/api/annual-returns/2020?state=LA', 'year'],
    ['/api/annual-returns/2099/itf', 'year'],
  ])('%s → 422 on %s', async (url, field) => {
    const res = await get(url);
    expect([res.statusCode, Object.keys(res.json().error)]).toEqual([422, [field]]);
  });

  it('a path that is not a year → 404', async () => {
    const res = await get('/api/annual-returns/20x6?state=LA');
    expect([res.statusCode, res.json()]).toEqual([404, { error: 'Annual return not found.' }]);
  });

  it('a year is refused until it starts in Lagos (UTC+1)', () => {
    expect(() => parseYear('2027', new Date('2026-12-31T22:59:59Z'))).toThrow();
    expect(parseYear('2027', new Date('2026-12-31T23:00:00Z'))).toBe(2027);
  });
});

describe('GET /api/annual-returns/{year}/itf', () => {
  it('1% of the gross payroll for an employer with 5 or more employees paid in the year', async () => {
    const [{ gross }] = await queryRows<{ gross: string }>(
      ctx.db,
      sql`SELECT sum(p.gross_pay * 100)::bigint::text AS gross FROM paystubs p JOIN payroll_runs r ON r.id = p.transaction_id
          WHERE p.company_id = ${world.company.id} AND p.status = 'paid' AND r.status = 'paid'`,
    );
    const res = await get('/api/annual-returns/2026/itf');
    expect(res.json()).toEqual({
      message: 'ITF levy retrieved successfully',
      year: 2026,
      eligible: true,
      employees: 7,
      annual_payroll: Number(gross) / 100,
      amount: Number((BigInt(gross) + 50n) / 100n) / 100,
      due_date: '2027-04-01',
    });
    expect((await get('/api/annual-returns/2025/itf')).json()).toMatchObject({
      eligible: false,
      employees: 0,
      annual_payroll: 0,
      amount: 0,
    });
  });
});

describe('scopes and tenancy', () => {
  it('each route has its own scope; remittances.* and annual-returns.* grant a family', async () => {
    const { token } = await issueToken(ctx.db, world.company.id, ['remittances.index', 'annual-returns.*']);
    const caller = { auth: { authorization: `Bearer ${token}` } };
    const status = async (url: string) => (await as(ctx.app, caller).get(url)).statusCode;
    expect(await status('/api/remittances?month=2026-03')).toBe(200);
    expect(await status('/api/remittances/nhf.csv?month=2026-03')).toBe(403);
    expect(await status('/api/annual-returns/2026?state=LA')).toBe(200);
    expect(await status('/api/annual-returns/2026/itf')).toBe(200);
  });

  it("another company cannot read this company's schedules or returns", async () => {
    const stranger = await createCompany(ctx.db, { name: 'Stranger' });
    const id = world.company.id;
    await expectTenantIsolation(
      ctx.app,
      stranger,
      world.company,
      [
        `/api/remittances?month=2026-03&company_id=${id}`,
        `/api/remittances/paye.csv?month=2026-03&state=LA&company_id=${id}`,
        `/api/remittances/pension.xlsx?month=2026-03&pfa_code=LEADWAY&company_id=${id}`,
        `/api/annual-returns/2026?state=LA&company_id=${id}`,
        `/api/annual-returns/2026/itf?company_id=${id}`,
      ].map((url) => ({ method: 'GET' as const, url })),
    );
  });
});

describe('leavers in the annual return (docs/compliance.md, "Leavers in schedules")', () => {
  it('each row carries exit_date: the last day for a leaver of the year, null for the others; the CSV too', async () => {
    const ada = world.staff[0];
    const caller = await freshCaller();
    const get = (url: string) => as(ctx.app, caller).get(url);
    const res = await as(ctx.app, caller).post(`/api/users/${ada.id}/terminate`, { exit_date: '2026-04-15', reason: 'retirement' });
    expect(res.statusCode, res.body).toBe(200);
    const rows = (await get('/api/annual-returns/2026?state=LA')).json().data as { user_id: number; exit_date: string | null }[];
    expect(rows.map((row) => [row.user_id, row.exit_date])).toEqual(
      rows.map((row) => [row.user_id, row.user_id === ada.id ? '2026-04-15' : null]),
    );
    const csv = parse((await get('/api/annual-returns/2026?state=LA&format=csv')).body, { relax_column_count: true }) as string[][];
    const titles = csv.findIndex((row) => row[0] === 'S/N');
    const column = csv[titles].indexOf('Exit date');
    expect(column).toBe(csv[titles].indexOf('Months employed') + 1);
    expect(
      csv
        .slice(titles + 1, -1)
        .map((row) => row[column])
        .sort(),
    ).toEqual(['', '', '2026-04-15']);
  });
});

describe('opening year-to-date in the annual return (docs/compliance.md, "Annual return")', () => {
  it('each row carries the opening figures as their own fields, zeros without any; the CSV as columns; totals unchanged', async () => {
    const caller = await freshCaller();
    const get = (url: string) => as(ctx.app, caller).get(url);
    const before = (await get('/api/annual-returns/2026?state=LA')).json();
    const listed = before.data as { user_id: number; opening_gross: number; opening_months: number }[];
    expect(listed.every((row) => row.opening_gross === 0 && row.opening_months === 0)).toBe(true);
    const who = listed[0].user_id;
    const put = await as(ctx.app, caller).put(`/api/users/${who}/year-to-date/2026`, {
      gross_pay: '1200000.50',
      taxable_pay: 1_100_000,
      tax_withheld: 90_000,
      employee_pension: 80_000,
      nhf: 1000,
      nhis: 500,
      months: 2,
    });
    expect(put.statusCode, put.body).toBe(200);
    // Another year's opening is not this year's.
    await as(ctx.app, caller).put(`/api/users/${who}/year-to-date/2025`, { ...put.json().before_service, months: 1 });
    const after = (await get('/api/annual-returns/2026?state=LA')).json();
    const row = after.data.find((r: { user_id: number }) => r.user_id === who);
    expect(row).toMatchObject({
      opening_gross: 1200000.5,
      opening_taxable: 1_100_000,
      opening_tax: 90_000,
      opening_pension: 80_000,
      opening_nhf: 1000,
      opening_nhis: 500,
      opening_months: 2,
    });
    // The employer's own figures and totals do not include them.
    expect(after.totals).toEqual(before.totals);
    expect(row.tax_deducted).toBe(before.data.find((r: { user_id: number }) => r.user_id === who).tax_deducted);
    const csv = parse((await get('/api/annual-returns/2026?state=LA&format=csv')).body, { relax_column_count: true }) as string[][];
    const titles = csv.findIndex((line) => line[0] === 'S/N');
    const gross = csv[titles].indexOf('Before this service: gross');
    expect(gross).toBe(csv[titles].indexOf('Exit date') + 1);
    expect(csv[titles].at(-1)).toBe('Tax deducted');
    expect(
      csv
        .slice(titles + 1, -1)
        .map((line) => line[gross])
        .sort(),
    ).toEqual(['0.00', '0.00', '1200000.50']);
  });
});
