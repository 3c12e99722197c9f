// Remittances (issue 17): GET /api/remittances for a month of 10,000 paid paystubs, target < 2 s,
// plus the biggest download (the month's NSITF schedule as CSV, every employee). The paid month is
// written straight into the tables (a paid run and its paystubs with their snapshots, spread over
// 5 states and 6 PFAs, a tenth without an RSA PIN), as the payroll-runs scenario's paid run would
// leave them: paying 10,000 transfers through the sandbox takes a minute and is timed there; this
// scenario times only the read. A second paid month of the same size sits beside it, so the
// payment-date filter has something to skip. BENCH_SMOKE (CI): 200 paystubs, 2 requests.
import { sql } from 'drizzle-orm';
import type { Executor } from '../../src/db/client.js';
import type { BenchContext, Scenario } from '../scenario.js';

const SMOKE = Boolean(process.env.BENCH_SMOKE);
const PAYSTUBS = Number(process.env.BENCH_REMITTANCE_PAYSTUBS ?? (SMOKE ? 200 : 10_000));
const REQUESTS = SMOKE ? 2 : 7;
const TARGET_MS = 2000;

async function paidMonth(db: Executor, companyId: number, runId: string, start: string, end: string, paid: string) {
  await db.execute(
    sql`INSERT INTO payroll_runs (id, company_id, status, source, pay_period_start, pay_period_end, payment_date, paid_at, totals)
        VALUES (${runId}, ${companyId}, 'paid', 'salaries', ${start}, ${end}, ${paid}, now(), '{}'::jsonb)`,
  );
  // Figures consistent with the engine's split (40/30/20, pension 8/10, NHF 2.5): exact numerics.
  await db.execute(
    sql`INSERT INTO paystubs (company_id, user_id, pay_period_start, pay_period_end, taxable_income, reimbursements, other_allowances,
          gross_pay, net_pay, tax_withheld, pension_contribution, nhf_contribution, nhis_contribution, other_deductions,
          employer_pension_contribution, nhis_employer_contribution, employer_cost, tax_regime, status, transaction_id, paid_at,
          state_of_residence, pfa_code, rsa_pin, nhf_number, basic_pay, housing_pay, transport_pay)
        SELECT ${companyId}, u.id, ${start}, ${end}, t, 0, 0, t, t - round(t * 0.15, 2) - round(t * 0.072, 2) - round(t * 0.01, 2),
          round(t * 0.15, 2), round(t * 0.072, 2), round(t * 0.01, 2), 0, 0, round(t * 0.09, 2), 0, t + round(t * 0.09, 2), 'pita', 'paid',
          ${runId}, now(),
          (ARRAY['LA', 'FC', 'KN', 'RI', 'OG'])[1 + n % 5], (ARRAY['STANBICIBTC', 'LEADWAY', 'ACCESSARM', 'PREMIUM', 'FCMB', 'OAK'])[1 + n % 6],
          CASE WHEN n % 10 = 0 THEN NULL ELSE 'PEN' || lpad(n::text, 12, '0') END, 'NHF' || n,
          round(t * 0.4, 2), round(t * 0.3, 2), round(t * 0.2, 2)
        FROM (SELECT id, row_number() OVER (ORDER BY id) AS n, (180000 + (id % 97) * 7919)::numeric(18, 2) AS t
              FROM users WHERE company_id = ${companyId}) u`,
  );
}

async function seed(ctx: BenchContext) {
  const { db } = ctx.database;
  const company = await ctx.newCompany();
  await db.transaction(async (tx) => {
    await tx.execute(
      sql`INSERT INTO users (company_id, employee_id, first_name, last_name, email, personal_email, unique_id, is_active, onboarding_completed)
          SELECT ${company.id}, 'REM-' || lpad(n::text, 5, '0'), 'Payee' || n, 'Remit' || n, 'payee' || n || '@' || ${company.domain},
                 'payee' || n || '.' || ${company.id} || '@personal.test', md5(${company.id} || '-' || n), true, true
          FROM generate_series(1, ${PAYSTUBS}) AS n`,
    );
    await paidMonth(tx, company.id, `PR-REM-${company.id}-1`, '2031-02-01', '2031-02-28', '2031-02-27');
    await paidMonth(tx, company.id, `PR-REM-${company.id}-2`, '2031-03-01', '2031-03-31', '2031-03-28');
  });
  await ctx.database.execScript('VACUUM ANALYZE');
  return company;
}

async function time(ctx: BenchContext, token: string, path: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    const res = await fetch(`${ctx.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 300)}`);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

const scenario: Scenario = {
  name: 'remittances',
  order: 55,
  async run(ctx) {
    const company = await seed(ctx);
    for (const [label, path] of [
      ['GET /api/remittances', '/api/remittances?month=2031-03'],
      ['GET /api/remittances/nsitf.csv', '/api/remittances/nsitf.csv?month=2031-03'],
    ] as const) {
      const times = await time(ctx, company.token, path);
      const median = times[Math.floor(times.length / 2)];
      const worst = times.at(-1) as number;
      ctx.report({
        scenario: `${label} (${PAYSTUBS.toLocaleString('en-US')} paid paystubs in the month)`,
        rate: 1000 / median,
        unit: 'req/s',
        note: `${worst <= TARGET_MS || SMOKE ? '' : 'MISSED TARGET: '}median ${median.toFixed(0)} ms, worst ${worst.toFixed(0)} ms of ${REQUESTS} sequential requests (target < ${TARGET_MS} ms)`,
      });
    }
  },
};

export default scenario;
