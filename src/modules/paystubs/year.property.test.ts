// A randomised year through HTTP (docs/payroll.md, "Year-end true-up", "Opening year-to-date",
// "Loans and salary advances"), seeded and reproducible: PROPERTY_SEED=<n> replays a failure (the
// seed is in every assertion message). Two companies get the same people, joiners, leavers, pay
// rises, bonuses and opening figures: A on `annualised` with the year-end true-up and loans, B on
// `cumulative`. Every month of 2026 A's run is created, approved and paid (sandbox transfers), B's
// created. Checked, to the kobo:
// - each run's totals are the sums of its paystubs; each paystub's net pay is gross − PAYE −
//   pension − NHF − NHIS − other deductions + reimbursements, other deductions = the deduction
//   items (no custom contributions here), gross = regular + irregular;
// - each paystub's loan repayments together are at most max_deduction_ratio of its net pay before
//   loans (and so never above it); net pay never negative;
// - each loan's balance is never negative and equals principal − the principal parts repaid on paid
//   paystubs (interest is charged on top, never added to the balance); paid_off exactly at 0; the
//   last repayment's loan_balance_after is the balance;
// - for every employee still employed in December, the year's PAYE under annualised + true-up (A)
//   equals the cumulative method's (B): both are the cumulative figure over the year. Leavers are
//   left out of that one check by the rules: the true-up takes the leaver's year at k = N, the
//   cumulative method at the exit period's ordinal (docs/payroll.md, "Year-end true-up").
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { drainJobs, fundWallet, setBankAccounts } from '../../../test/helpers/payroll-runs.js';
import { createUserViaApi } from '../../../test/helpers/users.js';
import { queryRows } from '../../db/client.js';
import { columnToKobo, type Kobo, koboToString } from '../../tax-engine/money.js';

const SEED = Number(process.env.PROPERTY_SEED ?? 20_261_127);

/** mulberry32: a small seeded generator, so a seed replays the same year. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)), chance: (p: number) => next() < p };
}

interface Person {
  salary: Kobo;
  startMonth: number;
  startDay: number;
  exit?: { month: number; day: number };
  rise?: { month: number; salary: Kobo };
  opening?: { gross: Kobo; tax: Kobo; pension: Kobo };
  loan?: { kind: 'loan' | 'advance'; principal: Kobo; instalment: Kobo; rate: string; start: number; skip?: number };
  bonuses: Map<number, Kobo>;
}

const pad = (n: number) => String(n).padStart(2, '0');
const lastDay = (m: number) => new Date(Date.UTC(2026, m, 0)).getUTCDate();
const money = (kobo: Kobo) => koboToString(kobo);
const k = (value: number | string) => columnToKobo(String(value));

/** About the NTA 2025 tax on a year's pay less 7.2 % pension (no rent relief): only to size openings. */
function roughAnnualTax(annual: Kobo): Kobo {
  const bands: [Kobo, bigint][] = [
    [80_000_000n, 0n],
    [220_000_000n, 15n],
    [900_000_000n, 18n],
    [1_300_000_000n, 21n],
    [2_500_000_000n, 23n],
  ];
  let rest = (annual * 928n) / 1000n;
  let tax = 0n;
  for (const [width, rate] of bands) {
    // biome-ignore lint/complexity/useMathMinMax: Math.min takes no BigInt
    const slice = rest < width ? rest : width;
    tax += (slice * rate) / 100n;
    rest -= slice;
  }
  return tax + (rest * 25n) / 100n;
}

/** The year's people: salaries with kobo, joiners, leavers, rises, bonuses, openings and loans. */
function plan(seed: number, count: number): Person[] {
  const r = generator(seed);
  return Array.from({ length: count }, () => {
    const salary = BigInt(r.int(150_000, 900_000)) * 100n + BigInt(r.int(0, 99));
    const joiner = r.chance(0.4);
    const startMonth = joiner ? r.int(2, 9) : 1;
    const person: Person = { salary, startMonth, startDay: joiner ? r.int(1, 28) : 1, bonuses: new Map() };
    if (r.chance(0.3)) person.exit = { month: r.int(startMonth + 1, 11), day: r.int(1, 28) };
    const lastMonth = person.exit?.month ?? 12;
    if (r.chance(0.4) && startMonth < lastMonth)
      person.rise = { month: r.int(startMonth + 1, lastMonth), salary: (salary * BigInt(r.int(105, 130))) / 100n };
    for (let m = startMonth; m <= lastMonth; m++) if (r.chance(0.15)) person.bonuses.set(m, (salary * BigInt(r.int(5, 50))) / 100n);
    if (joiner && r.chance(0.6)) {
      // Before this service: the months before joining at this pay, with a little less tax withheld
      // than the year's rate (cumulative never refunds, and a catch-up larger than a short first
      // month's pay would fail the paystub: docs/payroll.md, "Opening year-to-date").
      const months = BigInt(startMonth - 1);
      const gross = salary * months;
      person.opening = { gross, tax: (roughAnnualTax(salary * 12n) * months * 9n) / 120n, pension: (gross * 72n) / 1000n };
    }
    if (r.chance(0.5)) {
      const advance = r.chance(0.3);
      const principal = advance ? salary / BigInt(r.int(1, 3)) : BigInt(r.int(50_000, 1_500_000)) * 100n;
      const instalment = advance ? principal / BigInt(r.int(3, 6)) : principal / BigInt(r.int(2, 12));
      const start = r.int(startMonth, lastMonth);
      person.loan = {
        kind: advance ? 'advance' : 'loan',
        principal,
        instalment,
        rate: advance || r.chance(0.5) ? '0' : String(r.int(1, 30)),
        start,
        skip: r.chance(0.3) ? start + 1 : undefined,
      };
    }
    return person;
  });
}

let ctx: TestContext;
let a: TestCompany;
let b: TestCompany;
let boss: { email: string };
const people = plan(SEED, 8);
const ids: { a: number; b: number }[] = [];
const loanIds = new Map<number, number>();
const ratio = { num: 2n, den: 5n };
const why = (what: string) => `seed ${SEED}: ${what}`;

beforeAll(async () => {
  ctx = await createTestApp({ sandboxTransferDelaySeconds: 0 });
  a = await createCompany(ctx.db, { name: 'Year A Ltd', runApproval: 'token' });
  b = await createCompany(ctx.db, { name: 'Year B Ltd', runApproval: 'token' });
  [boss] = await createUsers(ctx.db, a.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
  const patchA = await as(ctx.app, a).patch(`/api/contribution-settings/${a.id}`, {
    tax_method: 'annualised',
    year_end_true_up: 'true',
    max_deduction_ratio: `${ratio.num}/${ratio.den}`,
  });
  expect(patchA.statusCode, patchA.body).toBe(200);
  expect((await as(ctx.app, b).patch(`/api/contribution-settings/${b.id}`, { tax_method: 'cumulative' })).statusCode).toBe(200);
  for (const [index, person] of people.entries()) {
    const start = `2026-${pad(person.startMonth)}-${pad(person.startDay)}`;
    const body = { base_salary: money(person.salary), is_active: true, start_date: start, last_name: `P${index}` };
    const pair = { a: (await createUserViaApi(ctx.app, a, body)).id, b: (await createUserViaApi(ctx.app, b, body)).id };
    ids.push(pair);
    if (person.opening) {
      const o = person.opening;
      const figures = {
        gross_pay: money(o.gross),
        taxable_pay: money(o.gross),
        tax_withheld: money(o.tax),
        employee_pension: money(o.pension),
      };
      for (const [company, id] of [[a, pair.a] as const, [b, pair.b] as const]) {
        const put = await as(ctx.app, company).put(`/api/users/${id}/year-to-date/2026`, {
          ...figures,
          nhf: '0',
          nhis: '0',
          months: person.startMonth - 1,
        });
        expect(put.statusCode, why(put.body)).toBe(200);
      }
    }
    if (person.loan) {
      const l = person.loan;
      const res = await as(ctx.app, a).post(`/api/users/${pair.a}/loans`, {
        kind: l.kind,
        principal: money(l.principal),
        instalment: money(l.instalment),
        start_period: `2026-${pad(l.start)}`,
        interest_rate_annual: l.rate,
      });
      expect(res.statusCode, why(res.body)).toBe(201);
      loanIds.set(index, res.json().loan.id);
      if (l.skip && l.skip <= 12) {
        const skipped = await as(ctx.app, a).post(`/api/loans/${res.json().loan.id}/skip`, { period: `2026-${pad(l.skip)}` });
        expect(skipped.statusCode, why(skipped.body)).toBe(200);
      }
    }
  }
  await setBankAccounts(
    ctx.db,
    ids.map((pair) => pair.a),
  );
  // Top-ups are at most ₦100,000,000 each (the wallet's limit): the year needs a few.
  for (let i = 0; i < 2; i++) await fundWallet(ctx.app, ctx.db, a, 100_000_000);
}, 300_000);
afterAll(() => ctx?.close());

interface Stub {
  id: number;
  user_id: number;
  gross_pay: number;
  regular_gross: number;
  irregular_gross: number;
  net_pay: number;
  tax_withheld: number;
  tax_true_up: number;
  pension_contribution: number;
  nhf_contribution: number;
  nhis_contribution: number;
  other_deductions: number;
  reimbursements: number;
  status: string;
  items: { type: string; amount: number; treatment: string; cash: boolean; loan_id: number | null; loan_balance_after: number | null }[];
}

const stubsOf = async (company: TestCompany, runId: string): Promise<Stub[]> =>
  (await as(ctx.app, company).get(`/api/paystubs?transaction_id=${runId}&per_page=100`)).json().data.data;

/** The month's changes (rises, leavers) in both companies, then both runs; A's approved and paid. */
async function month(m: number): Promise<{ runA: Record<string, unknown>; stubsA: Stub[]; stubsB: Stub[] }> {
  for (const [index, person] of people.entries()) {
    for (const [company, id] of [[a, ids[index].a] as const, [b, ids[index].b] as const]) {
      if (person.rise?.month === m) {
        const res = await as(ctx.app, company).put(`/api/users/${id}`, { base_salary: money(person.rise.salary) });
        expect(res.statusCode, why(res.body)).toBe(200);
      }
      if (person.exit?.month === m) {
        const res = await as(ctx.app, company).post(`/api/users/${id}/terminate`, {
          exit_date: `2026-${pad(m)}-${pad(person.exit.day)}`,
          reason: 'resignation',
        });
        expect(res.statusCode, why(res.body)).toBe(200);
      }
    }
  }
  const body = (side: 'a' | 'b') => ({
    pay_period_start: `2026-${pad(m)}-01`,
    pay_period_end: `2026-${pad(m)}-${lastDay(m)}`,
    payment_date: `2026-${pad(m)}-${lastDay(m)}`,
    items: people.flatMap((person, index) => {
      const bonus = person.bonuses.get(m);
      return bonus ? [{ user_id: ids[index][side], items: [{ type: 'bonus', amount: money(bonus) }] }] : [];
    }),
  });
  const createdA = await as(ctx.app, a).post('/api/payroll-runs', body('a'));
  expect(createdA.statusCode, why(createdA.body)).toBe(201);
  const createdB = await as(ctx.app, b).post('/api/payroll-runs', body('b'));
  expect(createdB.statusCode, why(createdB.body)).toBe(201);
  const runA = createdA.json().run;
  const approved = await as(ctx.app, a).post(`/api/payroll-runs/${runA.id}/approve`, { approver_email: boss.email });
  expect(approved.statusCode, why(approved.body)).toBe(200);
  expect((await as(ctx.app, a).post(`/api/payroll-runs/${runA.id}/pay`)).statusCode).toBe(202);
  await drainJobs(ctx.app);
  return { runA, stubsA: await stubsOf(a, runA.id), stubsB: await stubsOf(b, createdB.json().run.id) };
}

const TOTALS: [string, keyof Stub][] = [
  ['gross_pay', 'gross_pay'],
  ['irregular_gross', 'irregular_gross'],
  ['tax_withheld', 'tax_withheld'],
  ['tax_true_up', 'tax_true_up'],
  ['employee_pension', 'pension_contribution'],
  ['nhf', 'nhf_contribution'],
  ['nhis_employee', 'nhis_contribution'],
  ['other_deductions', 'other_deductions'],
  ['reimbursements', 'reimbursements'],
  ['net_pay', 'net_pay'],
];

function checkPaystub(stub: Stub, m: number): void {
  const at = why(`month ${m}, paystub ${stub.id}`);
  expect(k(stub.gross_pay), at).toBe(k(stub.regular_gross) + k(stub.irregular_gross));
  const deductionItems = stub.items.filter((i) => i.treatment === 'deduction').reduce((sum, i) => sum + k(i.amount), 0n);
  const expectedNet =
    k(stub.gross_pay) -
    k(stub.tax_withheld) -
    k(stub.pension_contribution) -
    k(stub.nhf_contribution) -
    k(stub.nhis_contribution) -
    k(stub.other_deductions) +
    k(stub.reimbursements);
  expect(k(stub.net_pay), at).toBe(expectedNet);
  // No custom contributions here: other deductions are exactly the deduction items (the repayments).
  expect(k(stub.other_deductions), at).toBe(deductionItems);
  expect(k(stub.net_pay) >= 0n, at).toBe(true);
  const repaid = stub.items.filter((i) => i.loan_id !== null).reduce((sum, i) => sum + k(i.amount), 0n);
  const before = k(stub.net_pay) + repaid;
  expect(repaid <= (before * ratio.num) / ratio.den, `${at}: ${repaid} within ${ratio.num}/${ratio.den} of ${before}`).toBe(true);
  expect(repaid <= before, at).toBe(true);
}

describe(`a randomised year (seed ${SEED})`, () => {
  const yearA: Stub[] = [];
  const yearB: Stub[] = [];

  it('every month: totals are sums of paystubs, net pay is its parts, repayments within the cap', async () => {
    for (let m = 1; m <= 12; m++) {
      const { runA, stubsA, stubsB } = await month(m);
      yearA.push(...stubsA);
      yearB.push(...stubsB);
      const totals = runA.totals as Record<string, number>;
      for (const [total, field] of TOTALS) {
        const sum = stubsA.reduce((acc, stub) => acc + k(stub[field] as number), 0n);
        expect(k(totals[total]), why(`month ${m} ${total}`)).toBe(sum);
      }
      expect(stubsA.length, why(`month ${m} A and B pay the same people`)).toBe(stubsB.length);
      for (const stub of stubsA) checkPaystub(stub, m);
      expect(
        stubsA.every((stub) => stub.status === 'paid'),
        why(`month ${m} paid`),
      ).toBe(true);
    }
  }, 600_000);

  it('loan balances: never negative, principal − principal repaid on paid paystubs, paid_off exactly at 0', async () => {
    for (const [index, loanId] of loanIds) {
      const loan = (await as(ctx.app, a).get(`/api/loans/${loanId}`)).json().loan;
      const [row] = await queryRows<{ repaid: string }>(
        ctx.db,
        sql`SELECT coalesce(sum(i.amount - coalesce(i.loan_interest, 0)), 0)::text AS repaid FROM paystub_items i
            JOIN paystubs p ON p.id = i.paystub_id WHERE i.loan_id = ${loanId} AND p.status = 'paid'`,
      );
      const at = why(`loan ${loanId} of person ${index}`);
      expect(k(loan.balance) >= 0n, at).toBe(true);
      expect(k(loan.balance), at).toBe(k(loan.principal) - columnToKobo(row.repaid));
      expect(loan.status === 'paid_off', at).toBe(k(loan.balance) === 0n);
      const items = yearA.flatMap((stub) => stub.items.filter((i) => i.loan_id === loanId));
      if (items.length > 0) expect(k(items.at(-1)?.loan_balance_after ?? -1), at).toBe(k(loan.balance));
      for (const item of items) expect((item.loan_balance_after ?? -1) >= 0, at).toBe(true);
    }
  });

  it("the year's PAYE with the true-up equals the cumulative figure for everyone employed in December", async () => {
    let compared = 0;
    for (const [index, person] of people.entries()) {
      if (person.exit) continue;
      const sumOf = (stubs: Stub[], id: number) => stubs.filter((s) => s.user_id === id).reduce((acc, s) => acc + k(s.tax_withheld), 0n);
      expect(sumOf(yearA, ids[index].a), why(`person ${index}`)).toBe(sumOf(yearB, ids[index].b));
      compared++;
    }
    expect(compared).toBeGreaterThan(0);
  });
});
