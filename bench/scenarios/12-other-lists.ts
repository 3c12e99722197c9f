// The other list and show endpoints tuned with U1 (P1, I1, I2, C1, S6), each in a single run with
// the same load as U1's (bench/lib/load.ts defaults: 10 connections, 2 s warm-up, 10 s), on a
// company of realistic size written straight into the tables: USERS employees with MONTHS paid
// months of paystubs (bench/lib/paid-months.ts), INVOICES invoices, CHILDREN child companies and
// CUSTOMS custom contributions with targets. Each row also gives its rate against the bare-Fastify
// ceiling of the same run (00-bare-fastify, when BENCH_ONLY kept it), as U1's rows do. BENCH_SMOKE
// (CI): small sizes; every request still runs end to end.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../src/db/client.js';
import { setupCompany } from '../../src/modules/companies/index.js';
import { loadLists } from '../lib/list-loads.js';
import { insertUsers, paidMonth } from '../lib/paid-months.js';
import type { BenchContext, Scenario } from '../scenario.js';

const SMOKE = Boolean(process.env.BENCH_SMOKE);
const USERS = Number(process.env.BENCH_LISTS_USERS || (SMOKE ? 200 : 10_000));
const MONTHS = SMOKE ? 2 : 3;
const INVOICES = SMOKE ? 30 : 500;
const CHILDREN = SMOKE ? 3 : 40;
const CUSTOMS = SMOKE ? 2 : 8;

async function insertInvoices(db: Executor, companyId: number) {
  // Spread over the first users, the statuses and a year of service dates; created over 500 minutes.
  await db.execute(
    sql`INSERT INTO invoices (company_id, user_id, user_email, transaction_id, description, service_date, provider_name, total_amount,
          amount_requested, balance, status, approval_status, category_name, subcategory_name, created_at, updated_at)
        SELECT ${companyId}, u.id, u.email, 'INV-' || ${companyId} || '-' || n, 'Claim ' || n, date '2031-01-01' + (n % 365),
               'Provider ' || (n % 17), 1000 + n * 37.5, 1000 + n * 37.5, 1000 + n * 37.5,
               (ARRAY['unpaid', 'pending', 'paid'])[1 + n % 3], (ARRAY['pending', 'manager_approved', 'approved'])[1 + n % 3],
               (ARRAY['Health', 'Travel', 'Training'])[1 + n % 3], 'General', now() - n * interval '1 minute', now()
        FROM generate_series(1, ${INVOICES}) AS n
        JOIN (SELECT id, email, row_number() OVER (ORDER BY id) AS k FROM users WHERE company_id = ${companyId}) u ON u.k = 1 + n % 50`,
  );
}

async function insertCustoms(db: Executor, companyId: number) {
  await db.execute(
    sql`INSERT INTO custom_contributions (company_id, name, type, apply_to, employee_responsibility, employer_responsibility,
          employee_value, employer_value, frequency)
        SELECT ${companyId}, 'Scheme ' || n, (ARRAY['amount', 'percentage'])[1 + n % 2], 'gross_pay', true, n % 2 = 0,
               1000 + n, CASE WHEN n % 2 = 0 THEN 500 END, 'per_paystub'
        FROM generate_series(1, ${CUSTOMS}) AS n`,
  );
  // Two targets each: a user type of the company and one of its users.
  await db.execute(
    sql`INSERT INTO custom_contribution_targets (custom_contribution_id, user_type_id, user_id)
        SELECT c.id, t.user_type_id, t.user_id FROM custom_contributions c
        CROSS JOIN LATERAL (VALUES ((SELECT min(id) FROM user_types WHERE company_id = ${companyId}), NULL::int),
                                   (NULL::int, (SELECT min(id) + c.id % 100 FROM users WHERE company_id = ${companyId}))) AS t(user_type_id, user_id)
        WHERE c.company_id = ${companyId}`,
  );
}

async function seed(ctx: BenchContext) {
  const { db } = ctx.database;
  const company = await ctx.newCompany();
  await db.transaction(async (tx) => {
    await insertUsers(tx, company, USERS, 'LST');
    for (let m = 1; m <= MONTHS; m++) {
      const mm = String(m).padStart(2, '0');
      await paidMonth(tx, company.id, `PR-LST-${company.id}-${m}`, `2031-${mm}-01`, `2031-${mm}-28`, `2031-${mm}-27`);
    }
    await insertInvoices(tx, company.id);
    await insertCustoms(tx, company.id);
    for (let i = 1; i <= CHILDREN; i++) {
      const domain = `child${i}-${crypto.randomBytes(3).toString('hex')}.test`;
      await setupCompany(tx, { name: `Bench Child ${i}`, domain, createdBy: company.id, plan: 'enterprise' });
    }
  });
  await ctx.database.execScript('VACUUM ANALYZE');
  return company;
}

const scenario: Scenario = {
  name: 'other-lists',
  order: 12,
  async run(ctx) {
    const company = await seed(ctx);
    const headers = { authorization: `Bearer ${company.token}` };
    const requests: [label: string, path: string][] = [
      [`P1 GET /api/paystubs (${(USERS * MONTHS).toLocaleString('en')} paystubs)`, '/api/paystubs?per_page=20'],
      [
        "P1 filtered by one run's transaction_id (the console's run view)",
        `/api/paystubs?per_page=20&transaction_id=PR-LST-${company.id}-1`,
      ],
      [`I1 GET /api/invoices (${INVOICES} invoices)`, '/api/invoices?per_page=20'],
      ['I2 GET /api/invoices/{transaction_id}', `/api/invoices/INV-${company.id}-${Math.ceil(INVOICES / 2)}`],
      [`C1 GET /api/companies (${CHILDREN} children)`, '/api/companies?per_page=20'],
      [`S6 GET /api/custom-contributions/{company_id} (${CUSTOMS} with 2 targets each)`, `/api/custom-contributions/${company.id}`],
    ];
    await loadLists(
      ctx,
      requests.map(([label, path]) => [label, path, headers]),
    );
  },
};

export default scenario;
