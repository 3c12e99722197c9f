// Opening year-to-date through HTTP (docs/payroll.md, "Opening year-to-date"): GET/PUT
// /api/users/{id}/year-to-date/{year}, its refusals and scopes, and cumulative tax counting the
// opening figures as earlier periods of the year. A real database (PGlite, or PostgreSQL).
import { spawnSync } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { paystubItem, postPaystubs } from '../../../test/helpers/payroll.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const OPENING = {
  gross_pay: 3_000_000,
  taxable_pay: '3000000.00',
  tax_withheld: 0,
  employee_pension: 216_000,
  nhf: 0,
  nhis: 0,
  months: 6,
};

const months = (year: number, from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => {
    const m = from + i;
    const mm = String(m).padStart(2, '0');
    return { pay_period_start: `${year}-${mm}-01`, pay_period_end: `${year}-${mm}-${new Date(Date.UTC(year, m, 0)).getUTCDate()}` };
  });

type Created = { paystub: { pay_period_end: string; tax_withheld: number } };
const taxes = (body: { created_paystubs: Created[] }) =>
  body.created_paystubs
    .map((c) => c.paystub)
    .sort((a, b) => (a.pay_period_end < b.pay_period_end ? -1 : 1))
    .map((p) => p.tax_withheld);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

async function companyWith(count: number, taxMethod?: 'cumulative') {
  const company = await createCompany(ctx.db);
  const staff =
    count === 0
      ? []
      : await createUsers(
          ctx.db,
          company.id,
          Array.from({ length: count }, () => ({ baseSalary: '500000' })),
        );
  if (taxMethod)
    expect((await as(ctx.app, company).patch(`/api/contribution-settings/${company.id}`, { tax_method: taxMethod })).statusCode).toBe(200);
  return { company, staff };
}

const url = (id: number, year: number | string) => `/api/users/${id}/year-to-date/${year}`;
const put = (company: TestCompany, id: number, year: number | string, body: unknown) => as(ctx.app, company).put(url(id, year), body);

describe('GET/PUT /api/users/{id}/year-to-date/{year}', () => {
  it('none recorded: zeros and opening null; PUT records, GET shows, a second PUT replaces', async () => {
    const { company, staff } = await companyWith(1);
    const id = staff[0].id;
    const empty = await as(ctx.app, company).get(url(id, 2026));
    expect(empty.statusCode, empty.body).toBe(200);
    const zeros = { gross_pay: 0, taxable_pay: 0, tax_withheld: 0, employee_pension: 0, nhf: 0, nhis: 0 };
    expect(empty.json()).toEqual({
      user_id: id,
      year: 2026,
      opening: null,
      before_service: { ...zeros, months: 0 },
      paid_since: { ...zeros, paystubs: 0 },
      total: zeros,
    });

    const saved = await put(company, id, 2026, { ...OPENING, tax_withheld: '198060.50', nhf: 12.5 });
    expect(saved.statusCode, saved.body).toBe(200);
    const figures = { gross_pay: 3_000_000, taxable_pay: 3_000_000, tax_withheld: 198060.5, employee_pension: 216_000, nhf: 12.5, nhis: 0 };
    expect(saved.json()).toMatchObject({ message: 'Opening year-to-date saved successfully.', before_service: { ...figures, months: 6 } });
    expect(saved.json().opening).toMatchObject({ ...figures, months: 6 });
    expect(saved.json().opening.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);

    const again = await put(company, id, 2026, { ...OPENING, gross_pay: 1000, taxable_pay: 1000, months: 1 });
    expect(again.statusCode, again.body).toBe(200);
    const shown = (await as(ctx.app, company).get(url(id, 2026))).json();
    expect(shown.before_service).toEqual({ ...zeros, gross_pay: 1000, taxable_pay: 1000, employee_pension: 216_000, months: 1 });
    // Another year is its own.
    expect((await as(ctx.app, company).get(url(id, 2025))).json().opening).toBeNull();
  });

  it('paid_since sums the year’s paystubs except failed and cancelled; total adds the opening', async () => {
    const { company, staff } = await companyWith(1);
    const id = staff[0].id;
    const res = await postPaystubs(ctx.app, company, {
      paystubs: [...months(2026, 1, 3), ...months(2025, 12, 12)].map((period) => paystubItem(id, period)),
    });
    expect(res.statusCode, res.body).toBe(201);
    await ctx.db.execute(sql`UPDATE paystubs SET status = 'failed' WHERE user_id = ${id} AND pay_period_end = '2026-02-28'`);
    await ctx.db.execute(sql`UPDATE paystubs SET status = 'cancelled' WHERE user_id = ${id} AND pay_period_end = '2026-03-31'`);
    await put(company, id, 2026, OPENING);
    const shown = (await as(ctx.app, company).get(url(id, 2026))).json();
    expect(shown.paid_since).toMatchObject({ paystubs: 1, gross_pay: 500_000, taxable_pay: 500_000 });
    expect(shown.total).toMatchObject({ gross_pay: 3_500_000, taxable_pay: 3_500_000 });
    expect(shown.total.employee_pension).toBe(216_000 + shown.paid_since.employee_pension);
  });

  it('refuses bad figures with 422 naming each field, and writes nothing', async () => {
    const { company, staff } = await companyWith(1);
    const id = staff[0].id;
    const bad = await put(company, id, 2026, {
      gross_pay: -1,
      taxable_pay: '1e5',
      tax_withheld: '10.005',
      employee_pension: 'abc',
      nhf: true,
      months: 13,
      bonus: 5,
    });
    expect(bad.statusCode, bad.body).toBe(422);
    expect(Object.keys(bad.json().error).sort()).toEqual(
      ['bonus', 'employee_pension', 'gross_pay', 'months', 'nhf', 'nhis', 'taxable_pay', 'tax_withheld'].sort(),
    );
    expect(bad.json().error.nhis).toEqual(['The nhis field is required.']);
    expect(bad.json().error.months).toEqual(['The months field must be a whole number between 0 and 12.']);
    for (const months of [-1, 1.5, '12a']) expect((await put(company, id, 2026, { ...OPENING, months })).statusCode).toBe(422);
    for (const year of ['2020', '2101']) {
      const res = await put(company, id, year, OPENING);
      expect([res.statusCode, res.json().error]).toEqual([422, { year: ['The year must be a year between 2021 and 2100.'] }]);
      expect((await as(ctx.app, company).get(url(id, year))).statusCode).toBe(422);
    }
    // Not a four-digit year: no such resource, as the annual return's path.
    for (const year of ['abc', '20266', '226']) {
      const res = await put(company, id, year, OPENING);
      expect([res.statusCode, res.json()]).toEqual([404, { error: 'Year to date not found.' }]);
    }
    expect((await as(ctx.app, company).get(url(id, 2026))).json().opening).toBeNull();
    // 0 months and zero figures are a valid statement (nothing paid before).
    expect((await put(company, id, 2021, { ...OPENING, gross_pay: 0, taxable_pay: 0, employee_pension: 0, months: 0 })).statusCode).toBe(
      200,
    );
  });

  it('404 for another company’s user and a deleted user; scopes users.update and users.show', async () => {
    const { company, staff } = await companyWith(2);
    const other = await companyWith(0);
    expect((await put(other.company, staff[0].id, 2026, OPENING)).statusCode).toBe(404);
    expect((await as(ctx.app, other.company).get(url(staff[0].id, 2026))).statusCode).toBe(404);
    await ctx.db.execute(sql`UPDATE users SET deleted_at = now() WHERE id = ${staff[1].id}`);
    const gone = await put(company, staff[1].id, 2026, OPENING);
    expect([gone.statusCode, gone.json()]).toEqual([404, { error: 'Year to date not found.' }]);

    const writer = await createCompany(ctx.db, { scopes: ['users.update'] });
    const reader = await createCompany(ctx.db, { scopes: ['users.show'] });
    const [w] = await createUsers(ctx.db, writer.id, [{}]);
    const [r] = await createUsers(ctx.db, reader.id, [{}]);
    expect((await put(writer, w.id, 2026, OPENING)).statusCode).toBe(200);
    expect((await as(ctx.app, writer).get(url(w.id, 2026))).statusCode).toBe(403);
    expect((await as(ctx.app, reader).get(url(r.id, 2026))).statusCode).toBe(200);
    expect((await put(reader, r.id, 2026, OPENING)).statusCode).toBe(403);
  });
});

describe('the payslip shows the opening figures (docs/compliance.md, "Payslips")', () => {
  it('a line "Before this service (opening)" and the year with them', async () => {
    const { company, staff } = await companyWith(1);
    const id = staff[0].id;
    await put(company, id, 2026, { ...OPENING, tax_withheld: 396120 });
    const res = await postPaystubs(ctx.app, company, { paystubs: [paystubItem(id, months(2026, 7, 7)[0])] });
    expect(res.statusCode, res.body).toBe(201);
    const paystub = res.json().created_paystubs[0].paystub as { id: number; gross_pay: number; tax_withheld: number };
    const pdf = await as(ctx.app, company).get(`/api/paystubs/${paystub.id}/payslip`);
    expect(pdf.statusCode).toBe(200);
    const out = spawnSync('pdftotext', ['-layout', '-', '-'], { input: pdf.rawPayload });
    const text = out.stdout.toString();
    expect(text).toMatch(/Before this service \(opening\)\s+₦3,000,000\.00/);
    expect(text).toMatch(/Opening PAYE\s+₦396,120\.00/);
    expect(text).toMatch(/Gross pay with opening\s+₦3,500,000\.00/);
  });
});

describe('cumulative tax counts the opening figures (docs/payroll.md, "Opening year-to-date")', () => {
  it('a July joiner with Jan–Jun figures withholds what a full-year employee withholds Jul–Dec', async () => {
    const { company, staff } = await companyWith(2, 'cumulative');
    const [full, joiner] = staff;
    // The full-year employee, paid by this service from January: the year's liability on ₦6,000,000.
    const year = await postPaystubs(ctx.app, company, { paystubs: months(2026, 1, 12).map((p) => paystubItem(full.id, p)) });
    expect(year.statusCode, year.body).toBe(201);
    const fullTaxes = taxes(year.json());
    // ₦6,000,000 − pension 8 % × ₦450,000 × 12 = ₦5,568,000 chargeable: 15 % × 2,200,000 + 18 % × 2,568,000
    // = ₦792,240 a year, ₦66,020 a month (docs/payroll.md, "Opening year-to-date").
    expect(fullTaxes).toEqual(Array(12).fill(66020));
    const firstHalf = sum(fullTaxes.slice(0, 6));
    expect(firstHalf).toBe(396120);

    // The joiner brings the same first half as opening figures.
    expect((await put(company, joiner.id, 2026, { ...OPENING, tax_withheld: firstHalf })).statusCode).toBe(200);
    const joined = await postPaystubs(ctx.app, company, { paystubs: months(2026, 7, 12).map((p) => paystubItem(joiner.id, p)) });
    expect(joined.statusCode, joined.body).toBe(201);
    const joinerTaxes = taxes(joined.json());
    expect(joinerTaxes).toEqual(fullTaxes.slice(6));
    // The year's total is the full year's, and more than a July joiner without opening figures withholds.
    expect(firstHalf + sum(joinerTaxes)).toBe(792240);

    const bare = await companyWith(1, 'cumulative');
    const alone = await postPaystubs(ctx.app, bare.company, { paystubs: months(2026, 7, 12).map((p) => paystubItem(bare.staff[0].id, p)) });
    expect(taxes(alone.json())).toEqual([0, 59200, 59600, 59600, 59600, 59600]);
    expect(sum(taxes(alone.json()))).toBe(297600);
  });

  it('a failed paystub withheld nothing: the next period does not count it', async () => {
    const { company, staff } = await companyWith(2, 'cumulative');
    const [a, b] = staff;
    const june = await postPaystubs(ctx.app, company, { paystubs: [a, b].map((u) => paystubItem(u.id, months(2026, 6, 6)[0])) });
    expect(june.statusCode, june.body).toBe(201);
    await ctx.db.execute(sql`UPDATE paystubs SET status = 'failed' WHERE user_id = ${b.id}`);
    const july = await postPaystubs(ctx.app, company, { paystubs: [a, b].map((u) => paystubItem(u.id, months(2026, 7, 7)[0])) });
    const [taxA, taxB] = (july.json().created_paystubs as { paystub: { user_id: number; tax_withheld: number } }[])
      .sort((x, y) => (x.paystub.user_id === a.id ? -1 : y.paystub.user_id === a.id ? 1 : 0))
      .map((c) => c.paystub.tax_withheld);
    // b is a July joiner again (the first July withholding of a joiner is 0: docs/payroll.md, "Statutory amendments").
    expect(taxB).toBe(0);
    expect(taxA).toBeGreaterThan(0);
  });

  it('under annualised the opening figures change no tax', async () => {
    const { company, staff } = await companyWith(2);
    await put(company, staff[1].id, 2026, { ...OPENING, tax_withheld: 500_000 });
    const res = await postPaystubs(ctx.app, company, { paystubs: staff.map((u) => paystubItem(u.id, months(2026, 7, 7)[0])) });
    const [x, y] = (res.json().created_paystubs as Created[]).map((c) => c.paystub.tax_withheld);
    expect(x).toBe(y);
  });
});
