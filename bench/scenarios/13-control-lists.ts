// The lists that came with the year and its controls (the runs list, loans, the audit log) and the
// console's lists, each under U1's load (bench/lib/load.ts defaults: 10 connections, 2 s warm-up,
// 10 s), with its rate against the bare-Fastify ceiling of the same run (00-bare-fastify, when
// BENCH_ONLY kept it), as 12-other-lists does for P1, I1, C1 and S6 (the console's run page is
// measured by the growth scenario, on a run paid through the server). The company is written
// straight into the tables: USERS employees (the first two administrators, bench/lib/scale-fixture.ts),
// MONTHS paid monthly runs, LOANS loans and advances spread over the employees, and EVENTS audit
// events sealed as a live log is. BENCH_SMOKE (CI): small sizes; every request still runs end to end.
import { sql } from 'drizzle-orm';
import { sealAll } from '../lib/audit-seal.js';
import { setConsolePassword, signInConsole } from '../lib/console-session.js';
import { type ListRequest, loadLists } from '../lib/list-loads.js';
import { paidMonth } from '../lib/paid-months.js';
import { seedUsersSql } from '../lib/scale-fixture.js';
import type { BenchContext, Scenario } from '../scenario.js';

const SMOKE = Boolean(process.env.BENCH_SMOKE);
const USERS = SMOKE ? 100 : 2_000;
const MONTHS = SMOKE ? 3 : 24;
const LOANS = SMOKE ? 50 : 2_000;
const EVENTS = SMOKE ? 1_000 : 100_000;

async function seed(ctx: BenchContext) {
  const { db } = ctx.database;
  const company = await ctx.newCompany();
  await seedUsersSql(db, company.id, USERS);
  await db.transaction(async (tx) => {
    for (let m = 0; m < MONTHS; m++) {
      const year = 2031 + Math.floor(m / 12);
      const mm = String((m % 12) + 1).padStart(2, '0');
      await paidMonth(tx, company.id, `PR-CTL-${company.id}-${m + 1}`, `${year}-${mm}-01`, `${year}-${mm}-28`, `${year}-${mm}-27`);
    }
    // Loans of every kind and status, on the company's employees in turn.
    await tx.execute(
      sql`INSERT INTO loans (company_id, user_id, kind, principal, balance, instalment, start_period, interest_rate_annual, status)
          SELECT ${company.id}, u.id, CASE WHEN n % 4 = 0 THEN 'advance' ELSE 'loan' END, 100000 + n * 250, 50000 + n * 125, 10000,
                 '2031-' || lpad((1 + n % 12)::text, 2, '0'), CASE WHEN n % 4 = 0 THEN 0 ELSE 12 END,
                 (ARRAY['active', 'active', 'paid_off', 'written_off'])[1 + n % 4]
          FROM generate_series(1, ${LOANS}) AS n
          JOIN (SELECT id, row_number() OVER (ORDER BY id) AS k FROM users WHERE company_id = ${company.id}) u ON u.k = 1 + n % ${USERS}`,
    );
    await tx.execute(
      sql`INSERT INTO audit_events (company_id, actor_type, actor_id, action, target_type, target_id, changes)
          SELECT ${company.id}, CASE WHEN g % 3 = 0 THEN 'console_user' ELSE 'token' END, (g % 7)::text,
                 (ARRAY['user.updated', 'user.created', 'payroll_run.approved', 'loan.created', 'wallet.credited'])[1 + g % 5],
                 'user', (g % ${USERS})::text, '{"base_salary": ["1.00", "2.00"]}'::jsonb
          FROM generate_series(1, ${EVENTS}) g`,
    );
  });
  // Sealed before reading, as a live log is.
  await sealAll(db, [company.id]);
  const admin = `first1.last1@${company.domain}`;
  await setConsolePassword(db, company.id, admin);
  await ctx.database.execScript('VACUUM ANALYZE');
  return { ...company, cookie: await signInConsole(ctx.baseUrl, admin) };
}

const scenario: Scenario = {
  name: 'control-lists',
  order: 13,
  async run(ctx) {
    const company = await seed(ctx);
    const api = { authorization: `Bearer ${company.token}` };
    const web = { cookie: company.cookie };
    const requests: ListRequest[] = [
      [`GET /api/payroll-runs (${MONTHS} runs)`, '/api/payroll-runs?per_page=20', api],
      [`GET /api/loans (${LOANS.toLocaleString('en')} loans)`, '/api/loans?per_page=20', api],
      [`GET /api/audit-events (${EVENTS.toLocaleString('en')} events), a page of 50`, '/api/audit-events', api],
      [`the console's Employees page (${USERS.toLocaleString('en')} employees)`, '/console/employees', web],
      [`the console's Payroll page (${MONTHS} runs)`, '/console/payroll', web],
    ];
    await loadLists(ctx, requests);
  },
};

export default scenario;
