// The employer's year on a payroll run (docs/payroll.md, "Loans and salary advances", "Opening
// year-to-date"): POST /api/payroll-runs for 10,000 employees of whom 2,000 repay a loan and 1,000
// have opening figures, against the same run of a twin company without them, in the same bench run:
// target >= 5,000 paystubs/s with them, and the ratio reported. Both companies are on tax_method
// cumulative, the one method whose every period reads the opening figures (under annualised only the
// year-end true-up does). Runs alternate between the twins (each a new month), after a warm-up each;
// the median of each is reported. BENCH_SMOKE (CI): 200 employees, 40 loans, 20 openings, one run.
import { eq, sql } from 'drizzle-orm';
import { contributionSettings, loans, userOpeningYtd, users } from '../../src/db/schema/index.js';
import { apiCall } from '../lib/http.js';
import { runPeriod, seedPayrollEmployer } from '../lib/payroll-employer.js';
import type { BenchContext, Scenario } from '../scenario.js';

const SMOKE = Boolean(process.env.BENCH_SMOKE);
const EMPLOYEES = Number(process.env.BENCH_RUN_EMPLOYEES ?? (SMOKE ? 200 : 10_000));
const LOANS = Math.round(EMPLOYEES / 5);
const OPENINGS = Math.round(EMPLOYEES / 10);
const RUNS = Number(process.env.BENCH_RUN_RUNS ?? (SMOKE ? 1 : 3));

/** The year's extras for the first LOANS and OPENINGS employees: active loans and 2031 opening figures. */
async function extras(ctx: BenchContext, companyId: number) {
  const { db } = ctx.database;
  const ids = (await db.select({ id: users.id }).from(users).where(eq(users.companyId, companyId)).orderBy(users.id)).map((row) => row.id);
  await db.transaction(async (tx) => {
    for (let start = 0; start < LOANS; start += 1000) {
      const slice = ids.slice(start, Math.min(start + 1000, LOANS));
      await tx.insert(loans).values(
        slice.map((userId, i) => ({
          companyId,
          userId,
          kind: 'loan' as const,
          principal: '600000.00',
          balance: '600000.00',
          instalment: `${20_000 + ((start + i) % 7) * 5_000}.00`,
          startPeriod: '2031-01',
          // Every other loan bears interest: the planner's interest path is timed too.
          interestRateAnnual: (start + i) % 2 === 0 ? '12' : '0',
        })),
      );
    }
    const openers = ids.slice(ids.length - OPENINGS);
    for (let start = 0; start < openers.length; start += 1000)
      await tx.insert(userOpeningYtd).values(
        openers.slice(start, start + 1000).map((userId) => ({
          companyId,
          userId,
          year: 2031,
          grossPay: '250000.00',
          taxablePay: '250000.00',
          taxWithheld: '20000.00',
          employeePension: '18000.00',
          months: 1,
        })),
      );
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const scenario: Scenario = {
  name: 'year-events',
  order: 51,
  async run(ctx) {
    const plain = await seedPayrollEmployer(ctx, EMPLOYEES, 'YR');
    const year = await seedPayrollEmployer(ctx, EMPLOYEES, 'YR');
    await extras(ctx, year.id);
    for (const company of [plain, year])
      await ctx.database.db
        .update(contributionSettings)
        .set({ taxMethod: 'cumulative' })
        .where(eq(contributionSettings.companyId, company.id));
    await ctx.database.execScript('VACUUM ANALYZE');
    const create = async (company: typeof plain, period: number) => {
      const started = performance.now();
      const res = await apiCall(ctx, company.token, 'POST', '/api/payroll-runs', {
        ...runPeriod(period),
        created_by_email: `payee2@${company.domainName}`,
      });
      const seconds = (performance.now() - started) / 1000;
      if (res.status !== 201) throw new Error(`POST /api/payroll-runs: ${res.status} ${JSON.stringify(res.json).slice(0, 500)}`);
      const paystubs = res.json.run.counts.unpaid as number;
      // The warm-up month (-1) precedes the mid-February joiners: only measured runs pay everyone.
      if (period >= 0 && paystubs !== EMPLOYEES) throw new Error(`run ${res.json.run.id} made ${paystubs} paystubs of ${EMPLOYEES}`);
      return { rate: paystubs / seconds, runId: res.json.run.id as string };
    };
    await create(plain, -1);
    await create(year, -1);
    const rates = { plain: [] as number[], year: [] as number[] };
    let last = '';
    for (let i = 0; i < RUNS; i++) {
      rates.plain.push((await create(plain, i)).rate);
      const run = await create(year, i);
      rates.year.push(run.rate);
      last = run.runId;
    }
    // The measured runs really carried the repayments (each loan repays once per month).
    const [row] = await ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(sql`paystub_items i JOIN paystubs p ON p.id = i.paystub_id`)
      .where(sql`p.transaction_id = ${last} AND i.loan_id IS NOT NULL`);
    if (row.n !== LOANS) throw new Error(`the last run repaid ${row.n} loans of ${LOANS}`);
    const withYear = median(rates.year);
    const without = median(rates.plain);
    const label = EMPLOYEES.toLocaleString('en-US');
    ctx.report({
      scenario: `POST /api/payroll-runs (${label} employees, cumulative, no loans or openings)`,
      rate: Math.round(without),
      unit: 'paystubs/s',
      note: `median of ${RUNS}; the twin of the next row`,
    });
    ctx.report({
      scenario: `POST /api/payroll-runs (${label} employees, ${LOANS.toLocaleString('en-US')} loans, ${OPENINGS.toLocaleString('en-US')} openings)`,
      rate: Math.round(withYear),
      unit: 'paystubs/s',
      ratio: Number((withYear / without).toFixed(2)),
      note: `median of ${RUNS} (best ${Math.round(Math.max(...rates.year))}); ratio to the twin without them (target >= 5000 paystubs/s)`,
    });
  },
};

export default scenario;
