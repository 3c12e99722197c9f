// Paystubs approved before migration 0186 have no pinned destination (docs/payroll-runs.md,
// "Payment destinations", "Paystubs approved before destinations"): a database is built as it was
// before 0186 with that schema's SQL (a draft run, an approved run not yet paid, a paid paystub
// whose transfer went to an account the employee has since left, a failed one), migrated to the
// head, and each paystub is checked: approved and unpaid ones pinned to the employee's details at
// migration time, paid ones to the account their transfer used, drafts left for their approval;
// and the hold works on the migrated data.
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/helpers/database.js';
import { type Executor, queryRows } from '../../../db/client.js';
import { migrate } from '../../../db/migrate.js';

let testDb: TestDatabase;
afterAll(() => testDb?.close());

const one = async <T>(db: Executor, query: SQL) => (await queryRows<T>(db, query))[0];

async function paystub(db: Executor, companyId: number, userId: number, runId: string, status: string, month: string) {
  const { id } = await one<{ id: number }>(
    db,
    sql`INSERT INTO paystubs (company_id, user_id, pay_period_start, pay_period_end, taxable_income, reimbursements, other_allowances,
          gross_pay, net_pay, tax_withheld, pension_contribution, nhf_contribution, nhis_contribution, other_deductions,
          employer_pension_contribution, nhis_employer_contribution, employer_cost, tax_regime, status, transaction_id, payment_reference)
        VALUES (${companyId}, ${userId}, ${`2026-${month}-01`}, ${`2026-${month}-28`}, 100000, 0, 0, 100000, 90000, 5000, 5000, 0, 0, 0,
          5000, 0, 105000, 'nta2025', ${status}, ${runId}, ${status === 'paid' ? `PT-OLD-${runId}` : null}) RETURNING id`,
  );
  return id;
}

const ids: Record<string, number> = {};
let userId = 0;

beforeAll(async () => {
  testDb = await createTestDatabase({ migrateThrough: '0185' });
  const db = testDb.database.db;
  const { id: companyId } = await one<{ id: number }>(
    db,
    sql`INSERT INTO companies (name, code, domain) VALUES ('Old Data', 'olddata', 'olddata.test') RETURNING id`,
  );
  ({ id: userId } = await one<{ id: number }>(
    db,
    sql`INSERT INTO users (company_id, employee_id, first_name, last_name, email, personal_email, unique_id, bank_name, bank_code, account_number)
        VALUES (${companyId}, 'E-1', 'Ada', 'Obi', 'ada@olddata.test', 'ada@home.test', 'uid-old-1', 'Access Bank', '044', '0690000031')
        RETURNING id`,
  ));
  const runs = { draft: 'PR-20260101-DRAFT1', approved: 'PR-20260101-APPRV1', paid: 'PR-20260101-PAIDX1', failed: 'PR-20260101-FAILD1' };
  for (const [status, id] of Object.entries(runs))
    await db.execute(
      sql`INSERT INTO payroll_runs (id, company_id, status, source, pay_period_start, pay_period_end, totals, skipped)
          VALUES (${id}, ${companyId}, ${status === 'paid' ? 'paid' : status}, 'salaries', '2026-01-01', '2026-01-28', '{}'::jsonb, '[]'::jsonb)`,
    );
  ids.draft = await paystub(db, companyId, userId, runs.draft, 'unpaid', '01');
  ids.approved = await paystub(db, companyId, userId, runs.approved, 'unpaid', '02');
  ids.paid = await paystub(db, companyId, userId, runs.paid, 'paid', '03');
  ids.failed = await paystub(db, companyId, userId, runs.failed, 'failed', '04');
  // The paid paystub went to the employee's previous account.
  await db.execute(
    sql`INSERT INTO payroll_transfers (reference, company_id, run_id, paystub_id, attempt, batch, amount, bank_name, account_number, provider,
          status, bank_code, account_name)
        VALUES (${`PT-OLD-${runs.paid}`}, ${companyId}, ${runs.paid}, ${ids.paid}, 1, 0, 90000, 'Guaranty Trust Bank', '0123456784',
          'sandbox', 'paid', '058', 'ADA OBI')`,
  );
  await migrate(testDb.database);
});

const pins = () =>
  queryRows<{ id: number; status: string; code: string | null; account: string | null; name: string | null; pinned: boolean }>(
    testDb.database.db,
    sql`SELECT id, status, destination_bank_code AS code, destination_account_number AS account, destination_account_name AS name,
               destination_pinned_at IS NOT NULL AS pinned
        FROM paystubs WHERE user_id = ${userId} ORDER BY id`,
  );

it('pins approved unpaid and failed paystubs to the current details, paid ones to their transfer, drafts not at all', async () => {
  const byId = new Map((await pins()).map((p) => [p.id, p]));
  expect(byId.get(ids.draft)).toMatchObject({ status: 'unpaid', pinned: false, code: null, account: null });
  expect(byId.get(ids.approved)).toMatchObject({ status: 'unpaid', pinned: true, code: '044', account: '0690000031', name: 'Ada Obi' });
  expect(byId.get(ids.failed)).toMatchObject({ status: 'failed', pinned: true, code: '044', account: '0690000031' });
  expect(byId.get(ids.paid)).toMatchObject({ status: 'paid', pinned: true, code: '058', account: '0123456784', name: 'ADA OBI' });
});

it('holds the migrated approved paystub when the account changes afterwards, and only that one', async () => {
  await testDb.database.db.execute(sql`UPDATE users SET account_number = '0690000040' WHERE id = ${userId}`);
  const statuses = Object.fromEntries((await pins()).map((p) => [p.id, p.status]));
  expect(statuses).toEqual({ [ids.draft]: 'unpaid', [ids.approved]: 'held', [ids.paid]: 'paid', [ids.failed]: 'failed' });
});
