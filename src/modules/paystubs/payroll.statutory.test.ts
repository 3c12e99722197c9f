// HTTP tests of the engine amendments wired into P2 and payroll runs (docs/payroll.md, "Statutory
// amendments"; docs/statutory-data.md): NHF by sector and opt-in, no pre-2021 periods, tax-deductible
// custom contributions, tax_method cumulative with the stored year to date, and each paystub's
// snapshot. A real database (PGlite, or PostgreSQL with DATABASE_URL). The user and company fields
// are set with SQL here (their API is the users/companies modules').
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { optInToNhf, paystubItem, postPaystubs } from '../../../test/helpers/payroll.js';
import { runBody, setBankAccounts } from '../../../test/helpers/payroll-runs.js';
import { queryRows } from '../../db/client.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

async function companyWith(count: number, options: { sector?: 'public' | 'private'; optIn?: boolean } = {}) {
  const company = await createCompany(ctx.db);
  const staff =
    count === 0
      ? []
      : await createUsers(
          ctx.db,
          company.id,
          Array.from({ length: count }, () => ({ baseSalary: '500000' })),
        );
  if (options.sector) await ctx.db.execute(sql`UPDATE companies SET sector = ${options.sector} WHERE id = ${company.id}`);
  if (options.optIn) await optInToNhf(ctx.db, [company.id]);
  return { company, staff };
}

const months = (year: number, from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => {
    const m = from + i;
    const last = new Date(Date.UTC(year, m, 0)).getUTCDate();
    const mm = String(m).padStart(2, '0');
    return { pay_period_start: `${year}-${mm}-01`, pay_period_end: `${year}-${mm}-${last}` };
  });

type Created = { paystub: { user_id: number; pay_period_end: string; tax_withheld: number; nhf_contribution: number } };
const taxes = (body: { created_paystubs: Created[] }) =>
  body.created_paystubs
    .map((c) => c.paystub)
    .sort((a, b) => (a.pay_period_end < b.pay_period_end ? -1 : 1))
    .map((p) => p.tax_withheld);

const patchSettings = (company: TestCompany, body: Record<string, unknown>) =>
  as(ctx.app, company).patch(`/api/contribution-settings/${company.id}`, body);

describe('NHF by sector and opt-in (Business Facilitation Act 2023 s.45)', () => {
  it('P2: a private company deducts NHF only from opted-in users; a public one from everyone; nhf_enabled false from no one', async () => {
    const priv = await companyWith(2);
    await ctx.db.execute(sql`UPDATE users SET nhf_opt_in = true WHERE id = ${priv.staff[0].id}`);
    const pub = await companyWith(1, { sector: 'public' });
    const nhfOf = async (company: TestCompany, userIds: number[]) => {
      const res = await postPaystubs(ctx.app, company, { paystubs: userIds.map((id) => paystubItem(id)) });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json().created_paystubs as Created[]).map((c) => c.paystub.nhf_contribution);
    };
    // NHF = 2.5 % of basic (40 % of ₦500,000).
    expect(await nhfOf(priv.company, [priv.staff[0].id, priv.staff[1].id])).toEqual([5000, 0]);
    expect(await nhfOf(pub.company, [pub.staff[0].id])).toEqual([5000]);

    const off = await companyWith(1, { sector: 'public', optIn: true });
    expect((await patchSettings(off.company, { nhf_enabled: 'false' })).statusCode).toBe(200);
    expect(await nhfOf(off.company, [off.staff[0].id])).toEqual([0]);
  });

  it('payroll runs follow the same rule', async () => {
    const { company, staff } = await companyWith(2);
    await ctx.db.execute(sql`UPDATE users SET nhf_opt_in = true WHERE id = ${staff[1].id}`);
    await setBankAccounts(
      ctx.db,
      staff.map((u) => u.id),
    );
    const res = await as(ctx.app, company).post('/api/payroll-runs', runBody());
    expect(res.statusCode, res.body).toBe(201);
    const rows = await queryRows<{ user_id: number; nhf: string }>(
      ctx.db,
      sql`SELECT user_id, nhf_contribution::text AS nhf FROM paystubs WHERE transaction_id = ${res.json().run.id} ORDER BY user_id`,
    );
    expect(rows).toEqual([
      { user_id: staff[0].id, nhf: '0.00' },
      { user_id: staff[1].id, nhf: '5000.00' },
    ]);
  });
});

describe('no periods ending before 2021-01-01 (Finance Act 2020)', () => {
  const TOO_EARLY = { pay_period_end: ['Pay periods ending before 2021-01-01 are not supported.'] };

  it('P2 fails only that item, with the documented message', async () => {
    const { company, staff } = await companyWith(1);
    const res = await postPaystubs(ctx.app, company, {
      paystubs: [
        paystubItem(staff[0].id, { pay_period_start: '2020-12-01', pay_period_end: '2020-12-31' }),
        paystubItem(staff[0].id, { pay_period_start: '2021-01-01', pay_period_end: '2021-01-31' }),
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().failed_paystubs).toEqual([{ id: String(staff[0].id), errors: TOO_EARLY }]);
    expect(res.json().created_paystubs.map((c: Created) => c.paystub.pay_period_end)).toEqual(['2021-01-31']);
  });

  it('a payroll run of such a period answers 422 with the same message and writes nothing', async () => {
    const { company } = await companyWith(1);
    const res = await as(ctx.app, company).post(
      '/api/payroll-runs',
      runBody({ pay_period_start: '2020-12-01', pay_period_end: '2020-12-31', payment_date: '2020-12-28' }),
    );
    expect([res.statusCode, res.json().error]).toEqual([422, TOO_EARLY]);
    const [{ n }] = await queryRows<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM paystubs WHERE company_id = ${company.id}`);
    expect(n).toBe(0);
  });
});

describe('tax-deductible custom contributions (Pension Reform Act 2014 s.10(1); NTA 2025 s.30)', () => {
  const VOLUNTARY = { name: 'Voluntary pension', type: 'percentage', apply_to: 'gross_pay', frequency: 'per_paystub' };

  it('S8/S9 accept tax_deductible only on gross pay with an employee part (else 422); it defaults to false', async () => {
    const { company } = await companyWith(0);
    const url = `/api/custom-contributions/${company.id}`;
    const message = 'The tax_deductible field may be true only for a contribution applied to gross_pay with an employee part.';
    const bad = [
      { ...VOLUNTARY, apply_to: 'net_pay', responsibility: 'employee', employee_value: 5, tax_deductible: true },
      { ...VOLUNTARY, responsibility: 'employer', employer_value: 5, tax_deductible: true },
    ];
    for (const body of bad) {
      const res = await as(ctx.app, company).post(url, body);
      expect([res.statusCode, res.json()]).toEqual([422, { error: message }]);
    }
    const plain = await as(ctx.app, company).post(url, {
      ...VOLUNTARY,
      name: 'Plain',
      responsibility: 'both',
      employee_value: 1,
      employer_value: 1,
    });
    expect([plain.statusCode, plain.json().data.tax_deductible]).toEqual([201, false]);
    const made = await as(ctx.app, company).post(url, {
      ...VOLUNTARY,
      responsibility: 'employee',
      employee_value: 5,
      tax_deductible: true,
    });
    expect([made.statusCode, made.json().data.tax_deductible]).toEqual([201, true]);
    const id = made.json().data.id;
    const toNet = await as(ctx.app, company).patch(`${url}/${id}`, { apply_to: 'net_pay' });
    expect([toNet.statusCode, toNet.json()]).toEqual([422, { error: message }]);
    const off = await as(ctx.app, company).patch(`${url}/${id}`, { tax_deductible: false, apply_to: 'net_pay' });
    expect([off.statusCode, off.json().data.tax_deductible, off.json().data.apply_to]).toEqual([200, false, 'net_pay']);
    expect((await as(ctx.app, company).get(`${url}/${plain.json().data.id}`)).json().data.tax_deductible).toBe(false);
  });

  it('the employee part reduces taxable income: ₦65,120.00 → ₦60,620.00', async () => {
    // T ₦500,000 (Jan 2026, NTA 2025): D = (pension 36,000 + NHF 5,000 + 5 % of gross 25,000) × 12 =
    // 792,000; taxable 5,208,000: 15 % × 2,200,000 + 18 % × 2,208,000 = 727,440 a year → 60,620.
    // Without it D = 492,000: 330,000 + 18 % × 2,508,000 = 781,440 → 65,120.
    const { company, staff } = await companyWith(2, { optIn: true });
    const created = await as(ctx.app, company).post(`/api/custom-contributions/${company.id}`, {
      ...VOLUNTARY,
      responsibility: 'employee',
      employee_value: 5,
      tax_deductible: true,
      users: [staff[0].email],
    });
    expect(created.statusCode, created.body).toBe(201);
    const res = await postPaystubs(ctx.app, company, { paystubs: staff.map((u) => paystubItem(u.id)) });
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json().created_paystubs as Created[]).map((c) => c.paystub.tax_withheld)).toEqual([60620, 65120]);
  });
});

describe('tax_method (Nigeria Tax Administration Act 2025 s.51(7))', () => {
  it('S2 shows annualised by default; S3 sets cumulative and refuses anything else', async () => {
    const { company } = await companyWith(0);
    const url = `/api/contribution-settings/${company.id}`;
    expect((await as(ctx.app, company).get(url)).json().data.tax_method).toBe('annualised');
    const bad = await patchSettings(company, { tax_method: 'monthly' });
    expect([bad.statusCode, bad.json()]).toEqual([422, { error: 'The tax_method must be one of: annualised, cumulative.' }]);
    const ok = await patchSettings(company, { tax_method: ' Cumulative ' });
    expect([ok.statusCode, ok.json().data.tax_method]).toEqual([200, 'cumulative']);
    expect((await as(ctx.app, company).get('/api/contribution-settings')).json().data[0].tax_method).toBe('cumulative');
  });

  // A July joiner on ₦500,000 a month, pension and NHF at the default rates (the golden case of
  // docs/payroll.md, "Statutory amendments"): ₦293,100.00 over the year instead of 6 × 65,120 =
  // ₦390,720.00 annualised.
  const JULY_JOINER = [0, 57700, 58850, 58850, 58850, 58850];

  it('a July joiner in one call, items in any order, computed in period order', async () => {
    const { company, staff } = await companyWith(1, { optIn: true });
    expect((await patchSettings(company, { tax_method: 'cumulative' })).statusCode).toBe(200);
    const items = months(2026, 7, 12).map((period) => paystubItem(staff[0].id, period));
    const res = await postPaystubs(ctx.app, company, { paystubs: items.reverse() });
    expect(res.statusCode, res.body).toBe(201);
    expect(taxes(res.json())).toEqual(JULY_JOINER);
    expect(JULY_JOINER.reduce((a, b) => a + b)).toBe(293100);
  });

  it('across calls from the stored year to date (exact tax_deductions); cancelled paystubs and other years do not count', async () => {
    const { company, staff } = await companyWith(1, { optIn: true });
    const id = staff[0].id;
    expect((await patchSettings(company, { tax_method: 'cumulative' })).statusCode).toBe(200);
    // A June paystub, then cancelled (its run was), and a December 2025 one: neither is in the year.
    const june = await postPaystubs(ctx.app, company, {
      paystubs: [
        paystubItem(id, { pay_period_start: '2026-06-01', pay_period_end: '2026-06-30', taxable_income: 2_000_000 }),
        paystubItem(id, { pay_period_start: '2025-12-01', pay_period_end: '2025-12-31', taxable_income: 2_000_000 }),
      ],
    });
    expect(june.statusCode, june.body).toBe(201);
    await ctx.db.execute(sql`UPDATE paystubs SET status = 'cancelled' WHERE user_id = ${id} AND pay_period_end = '2026-06-30'`);
    const first = await postPaystubs(ctx.app, company, { paystubs: months(2026, 7, 9).map((p) => paystubItem(id, p)) });
    const second = await postPaystubs(ctx.app, company, { paystubs: months(2026, 10, 12).map((p) => paystubItem(id, p)) });
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect([...taxes(first.json()), ...taxes(second.json())]).toEqual(JULY_JOINER);
    const stored = await queryRows<{ tax_deductions: string }>(
      ctx.db,
      sql`SELECT tax_deductions::text AS tax_deductions FROM paystubs WHERE user_id = ${id} AND pay_period_end = '2026-07-31'`,
    );
    // D ÷ N = pension 36,000 + NHF 5,000 = 4,100,000 kobo × 156 × 10^12.
    expect(stored).toEqual([{ tax_deductions: '639600000000000000000' }]);
  });

  it('payroll runs read the same year to date: a July joiner paid by runs from salaries', async () => {
    const { company, staff } = await companyWith(1, { optIn: true });
    await setBankAccounts(ctx.db, [staff[0].id]);
    expect((await patchSettings(company, { tax_method: 'cumulative' })).statusCode).toBe(200);
    const taxesOfRun = async (month: { pay_period_start: string; pay_period_end: string }) => {
      const res = await as(ctx.app, company).post('/api/payroll-runs', runBody({ ...month, payment_date: month.pay_period_end }));
      expect(res.statusCode, res.body).toBe(201);
      const rows = await queryRows<{ tax: string }>(
        ctx.db,
        sql`SELECT tax_withheld::text AS tax FROM paystubs WHERE transaction_id = ${res.json().run.id}`,
      );
      return rows.map((row) => row.tax);
    };
    const [july, august] = months(2026, 7, 8);
    expect(await taxesOfRun(july)).toEqual(['0.00']);
    expect(await taxesOfRun(august)).toEqual(['57700.00']);
  });

  it('a December bonus: ₦946,680.00 withheld (December 230,360) instead of ₦957,990.00 annualised', async () => {
    const cumulative = await companyWith(1, { optIn: true });
    const annualised = await companyWith(1, { optIn: true });
    expect((await patchSettings(cumulative.company, { tax_method: 'cumulative' })).statusCode).toBe(200);
    // Annualised alone: the year-end true-up (docs/payroll.md, "Year-end true-up") is off here; with
    // it on, December brings the annualised year to the cumulative figure.
    expect((await patchSettings(annualised.company, { year_end_true_up: 'false' })).statusCode).toBe(200);
    const trued = await companyWith(1, { optIn: true });
    const year = (userId: number) =>
      months(2026, 1, 12).map((p) =>
        paystubItem(userId, { ...p, taxable_income: p.pay_period_end.startsWith('2026-12') ? 1_500_000 : 500_000 }),
      );
    const a = await postPaystubs(ctx.app, cumulative.company, { paystubs: year(cumulative.staff[0].id) });
    const b = await postPaystubs(ctx.app, annualised.company, { paystubs: year(annualised.staff[0].id) });
    const sum = (list: number[]) => Math.round(list.reduce((x, y) => x + y) * 100) / 100;
    expect(taxes(a.json()).at(-1)).toBe(230360);
    expect(sum(taxes(a.json()))).toBe(946680);
    expect(sum(taxes(b.json()))).toBe(957990);
    const c = await postPaystubs(ctx.app, trued.company, { paystubs: year(trued.staff[0].id) });
    expect(sum(taxes(c.json()))).toBe(946680);
  });
});

describe('paystub snapshots (docs/statutory-data.md)', () => {
  it('keep the statutory identity and the basic, housing and transport amounts as computed', async () => {
    const { company, staff } = await companyWith(1);
    const id = staff[0].id;
    await ctx.db.execute(
      sql`UPDATE users SET state_of_residence = 'LA', pfa_code = '021', rsa_pin = 'PEN100000000001', nhf_number = 'NHF-77' WHERE id = ${id}`,
    );
    expect((await postPaystubs(ctx.app, company, { paystubs: [paystubItem(id)] })).statusCode).toBe(201);
    // Later edits of the employee and of the salary split do not rewrite January.
    await ctx.db.execute(
      sql`UPDATE users SET state_of_residence = 'KN', pfa_code = NULL, rsa_pin = NULL, nhf_number = NULL WHERE id = ${id}`,
    );
    expect((await patchSettings(company, { basic_percentage: '50', housing_percentage: '25' })).statusCode).toBe(200);
    const feb = paystubItem(id, { pay_period_start: '2026-02-01', pay_period_end: '2026-02-28', taxable_income: 100000.01 });
    expect((await postPaystubs(ctx.app, company, { paystubs: [feb] })).statusCode).toBe(201);
    const rows = await queryRows(
      ctx.db,
      sql`SELECT state_of_residence, pfa_code, rsa_pin, nhf_number, basic_pay::text AS basic_pay, housing_pay::text AS housing_pay,
                 transport_pay::text AS transport_pay FROM paystubs WHERE user_id = ${id} ORDER BY pay_period_end`,
    );
    expect(rows).toEqual([
      {
        state_of_residence: 'LA',
        pfa_code: '021',
        rsa_pin: 'PEN100000000001',
        nhf_number: 'NHF-77',
        basic_pay: '200000.00',
        housing_pay: '150000.00',
        transport_pay: '100000.00',
      },
      // 50 % / 25 % / 20 % of ₦100,000.01, each rounded half-up once.
      {
        state_of_residence: 'KN',
        pfa_code: null,
        rsa_pin: null,
        nhf_number: null,
        basic_pay: '50000.01',
        housing_pay: '25000.00',
        transport_pay: '20000.00',
      },
    ]);
  });
});
