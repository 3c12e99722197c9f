// Remittances: GET /api/remittances for a month of 10,000 paid paystubs, target < 2 s, plus the
// biggest download (the month's NSITF schedule as CSV, every employee). The paid month is written
// straight into the tables (a paid run and its paystubs with their snapshots, spread over 5 states
// and 6 PFAs, a tenth without an RSA PIN), as the payroll-runs scenario's paid run would leave
// them: paying 10,000 transfers through the sandbox takes a minute and is timed there; this
// scenario times only the read. A second paid month of the same size sits beside it, so the
// payment-date filter has something to skip. BENCH_SMOKE (CI): 200 paystubs, 2 requests.
import { timedGets } from '../lib/http.js';
import { insertUsers, paidMonth } from '../lib/paid-months.js';
import type { BenchContext, Scenario } from '../scenario.js';

const SMOKE = Boolean(process.env.BENCH_SMOKE);
const PAYSTUBS = Number(process.env.BENCH_REMITTANCE_PAYSTUBS ?? (SMOKE ? 200 : 10_000));
const REQUESTS = SMOKE ? 2 : 7;
const TARGET_MS = 2000;

async function seed(ctx: BenchContext) {
  const { db } = ctx.database;
  const company = await ctx.newCompany();
  await db.transaction(async (tx) => {
    await insertUsers(tx, company, PAYSTUBS, 'REM');
    await paidMonth(tx, company.id, `PR-REM-${company.id}-1`, '2031-02-01', '2031-02-28', '2031-02-27');
    await paidMonth(tx, company.id, `PR-REM-${company.id}-2`, '2031-03-01', '2031-03-31', '2031-03-28');
  });
  await ctx.database.execScript('VACUUM ANALYZE');
  return company;
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
      const { sorted, median } = await timedGets(`${ctx.baseUrl}${path}`, { authorization: `Bearer ${company.token}` }, REQUESTS);
      const worst = sorted.at(-1) as number;
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
