// P1's reads (paystubs.read.repo.ts): the page carries its total (the counter unfiltered, a count of
// the filter otherwise), an empty page reads it on its own, the prepared statements answer exactly
// what the statements they replaced answered (same values, same types: the response is unchanged),
// a transaction reads through itself, and on PostgreSQL the unfiltered page keeps its generic plan.
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/database.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { type Executor, hotReads, queryRows } from '../../db/client.js';
import { paystubsReadRepo } from './paystubs.read.repo.js';
import { PAYSTUB_COLUMNS, type PaystubFilters, paystubsWhere } from './paystubs.repo.js';

let testDb: TestDatabase;
let acme: TestCompany;
let empty: TestCompany;
let userIds: number[];

/** `count` paystubs of run `run`, one per user in turn, `paid` every third. */
async function insertPaystubs(db: Executor, companyId: number, run: string, month: string, users: number[]) {
  await db.execute(
    sql`INSERT INTO paystubs (company_id, user_id, pay_period_start, pay_period_end, taxable_income, reimbursements, other_allowances,
          gross_pay, net_pay, tax_withheld, pension_contribution, nhf_contribution, nhis_contribution, other_deductions,
          employer_pension_contribution, nhis_employer_contribution, employer_cost, tax_regime, status, transaction_id, paid_at)
        SELECT ${companyId}, u, ${`${month}-01`}::date, ${`${month}-28`}::date, 100000.5, 0, 10, 100010.5, 80000.25, 9000, 8000, 2500.1, 0, 0,
               10000, 0, 110010.5, 'pita', CASE WHEN n % 3 = 0 THEN 'paid' ELSE 'unpaid' END, ${run},
               CASE WHEN n % 3 = 0 THEN '2026-03-04 05:06:07.891234+00'::timestamptz END
        FROM unnest(${`{${users.join(',')}}`}::int[]) WITH ORDINALITY AS t(u, n)`,
  );
}

/** The statements P1 ran before the read-path work, as references. */
const reference = {
  page: (db: Executor, companyId: number, filters: PaystubFilters, offset: number, limit: number) =>
    queryRows<Record<string, unknown>>(
      db,
      sql`SELECT ${PAYSTUB_COLUMNS} FROM paystubs WHERE ${paystubsWhere(companyId, filters)} ORDER BY id DESC LIMIT ${limit} OFFSET ${offset}`,
    ),
  count: async (db: Executor, where: SQL) =>
    (await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM paystubs WHERE ${where}`))[0].n,
};

beforeAll(async () => {
  testDb = await createTestDatabase();
  const { db } = testDb.database;
  acme = await createCompany(db);
  empty = await createCompany(db);
  const people = await createUsers(db, acme.id, [{}, {}, {}, { userType: 'Contract' }, {}]);
  userIds = people.map((user) => user.id);
  await insertPaystubs(db, acme.id, 'RUN-A', '2026-01', userIds);
  await insertPaystubs(db, acme.id, 'RUN-B', '2026-02', userIds);
  await insertPaystubs(db, acme.id, 'RUN-C', '2026-03', userIds.slice(0, 2));
  // Records on some paystubs, with microsecond timestamps and a record without its rule.
  await db.execute(
    sql`INSERT INTO custom_contribution_records (company_id, contribution_id, custom_contribution_id, user_id, name, employee_contribution, employer_contribution, created_at)
        SELECT company_id, id, NULL, user_id, 'Welfare', 1500.5, 0, '2026-01-02 03:04:05.123456+00' FROM paystubs WHERE company_id = ${acme.id} AND id % 2 = 0`,
  );
});
afterAll(() => testDb.close());

describe('P1 reads', () => {
  const filterCases: [string, PaystubFilters][] = [
    ['no filter', {}],
    ['one user', { userId: 0 }],
    ['one run', { transactionId: 'RUN-B' }],
    ['a status', { status: 'paid' }],
    ['user + run + status', { userId: 0, transactionId: 'RUN-A', status: 'unpaid' }],
    ['nothing matches', { transactionId: 'RUN-NONE' }],
  ];
  for (const [label, raw] of filterCases) {
    it(`page and total, ${label}: the rows of the old statement, the exact total on every page and past the end`, async () => {
      const { db } = testDb.database;
      const filters = { ...raw, userId: raw.userId === undefined ? undefined : userIds[raw.userId] };
      const truth = await reference.count(db, paystubsWhere(acme.id, filters));
      for (const [offset, limit] of [
        [0, 3],
        [3, 3],
        [9, 3],
        [0, 100],
        [truth, 5],
        [truth + 10, 5],
      ]) {
        const { rows, total } = await paystubsReadRepo.page(db, acme.id, filters, offset, limit);
        expect(total).toBe(truth);
        const expected = await reference.page(db, acme.id, filters, offset, limit);
        expect((rows as unknown as Record<string, unknown>[]).map(({ total: _, ...row }) => row)).toEqual(expected);
      }
    });
  }

  it('a company without paystubs: empty page, total 0', async () => {
    expect(await paystubsReadRepo.page(testDb.database.db, empty.id, {}, 0, 10)).toEqual({ rows: [], total: 0 });
    expect(await paystubsReadRepo.page(testDb.database.db, empty.id, { status: 'paid' }, 0, 10)).toEqual({ rows: [], total: 0 });
  });

  it("the page's users and records are what the old statements read", async () => {
    const { db } = testDb.database;
    const { rows } = await paystubsReadRepo.page(db, acme.id, {}, 0, 100);
    const ids = rows.map((row) => row.id);
    const users = await paystubsReadRepo.usersOf(db, acme.id, userIds);
    const oldUsers = await queryRows(
      db,
      sql`SELECT u.id, u.employee_id, u.first_name, u.last_name, u.email, u.personal_email, u.unique_id, ut.name AS user_types,
                 u.title, u.department, u.level, u.office_location, u.payment_frequency, u.is_active, u.company_id, u.deleted_at
          FROM users u LEFT JOIN user_types ut ON ut.id = u.user_type_id
          WHERE u.company_id = ${acme.id} AND u.id = ANY(${`{${userIds.join(',')}}`}::int[])`,
    );
    const byId = <T extends { id: unknown }>(list: T[]) => [...list].sort((a, b) => Number(a.id) - Number(b.id));
    expect(byId(users)).toEqual(byId(oldUsers as { id: number }[]));
    expect(users.some((user) => user.user_types === 'Contract')).toBe(true);
    const records = await paystubsReadRepo.recordsOf(db, acme.id, ids);
    const oldRecords = await queryRows(
      db,
      sql`SELECT id, contribution_id, custom_contribution_id, user_id, name, employee_contribution::text AS employee_contribution,
                 employer_contribution::text AS employer_contribution, created_at, updated_at
          FROM custom_contribution_records WHERE company_id = ${acme.id} AND contribution_id = ANY(${`{${ids.join(',')}}`}::int[]) ORDER BY id`,
    );
    expect(records.length).toBeGreaterThan(0);
    expect(records).toEqual(oldRecords);
    // Another company's ids find nothing.
    expect(await paystubsReadRepo.usersOf(db, empty.id, userIds)).toEqual([]);
    expect(await paystubsReadRepo.recordsOf(db, empty.id, ids)).toEqual([]);
  });

  it('a transaction reads through itself (its own paystub, its own counter)', async () => {
    const { db } = testDb.database;
    const before = (await paystubsReadRepo.page(db, acme.id, {}, 0, 1)).total;
    await db
      .transaction(async (tx) => {
        await insertPaystubs(tx, acme.id, 'RUN-TX', '2026-04', userIds.slice(0, 1));
        const page = await paystubsReadRepo.page(tx, acme.id, {}, 0, 1);
        expect([page.total, page.rows[0].transaction_id]).toEqual([before + 1, 'RUN-TX']);
        expect((await paystubsReadRepo.page(tx, acme.id, { transactionId: 'RUN-TX' }, 0, 5)).total).toBe(1);
        throw new Error('rollback');
      })
      .catch((error: Error) => expect(error.message).toBe('rollback'));
    expect((await paystubsReadRepo.page(db, acme.id, {}, 0, 1)).total).toBe(before);
  });
});

describe("P1 by run: the run's counter (0260_paystub_run_counts.sql)", () => {
  const runTotal = async (db: Executor, run: string) => (await paystubsReadRepo.page(db, acme.id, { transactionId: run }, 0, 1)).total;

  it('follows inserts and deletes in their statement, and a paystub cannot change run or company', async () => {
    const { db } = testDb.database;
    await insertPaystubs(db, acme.id, 'RUN-D', '2026-05', userIds);
    expect(await runTotal(db, 'RUN-D')).toBe(userIds.length);
    await db.execute(sql`DELETE FROM paystubs WHERE company_id = ${acme.id} AND transaction_id = 'RUN-D' AND user_id = ${userIds[0]}`);
    expect(await runTotal(db, 'RUN-D')).toBe(userIds.length - 1);
    expect(await reference.count(db, sql`company_id = ${acme.id} AND transaction_id = 'RUN-D'`)).toBe(userIds.length - 1);
    await expect(
      db.execute(sql`UPDATE paystubs SET transaction_id = 'RUN-A' WHERE company_id = ${acme.id} AND transaction_id = 'RUN-D'`),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`UPDATE paystubs SET company_id = ${empty.id} WHERE company_id = ${acme.id} AND transaction_id = 'RUN-D'`),
    ).rejects.toThrow();
    // Updates of anything else (settlement, status) pass and leave the run's total alone.
    await db.execute(sql`UPDATE paystubs SET status = 'cancelled' WHERE company_id = ${acme.id} AND transaction_id = 'RUN-D'`);
    expect(await runTotal(db, 'RUN-D')).toBe(userIds.length - 1);
    // Every run's counter is its count.
    const drift = await queryRows<{ transaction_id: string }>(
      db,
      sql`SELECT p.transaction_id FROM (SELECT transaction_id, count(*)::int AS n FROM paystubs WHERE company_id = ${acme.id} GROUP BY 1) p
          LEFT JOIN (SELECT transaction_id, sum(paystubs)::int AS paystubs FROM paystub_run_counts WHERE company_id = ${acme.id} GROUP BY 1) c
            ON c.transaction_id = p.transaction_id WHERE c.paystubs IS DISTINCT FROM p.n`,
    );
    expect(drift).toEqual([]);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('P1 on PostgreSQL', () => {
  it('the unfiltered page and its users and records keep their generic plans on the hot pool', async () => {
    const { db } = testDb.database;
    for (let i = 0; i < 8; i++) {
      const { rows } = await paystubsReadRepo.page(db, acme.id, {}, i % 3, 2 + (i % 2));
      await paystubsReadRepo.usersOf(db, acme.id, [...new Set(rows.map((row) => row.user_id))]);
      await paystubsReadRepo.recordsOf(
        db,
        acme.id,
        rows.map((row) => row.id),
      );
    }
    const plans = await queryRows<{ name: string; custom_plans: number }>(
      hotReads(db),
      sql`SELECT name, custom_plans::int AS custom_plans FROM pg_prepared_statements WHERE name LIKE 'paystubs_page%' ORDER BY name`,
    );
    expect(plans.map((plan) => plan.name)).toEqual(['paystubs_page', 'paystubs_page_records', 'paystubs_page_users']);
    // The run's page (the console's run view) is prepared too.
    for (let i = 0; i < 8; i++) await paystubsReadRepo.page(db, acme.id, { transactionId: 'RUN-A' }, i % 3, 2);
    const run = await queryRows<{ name: string }>(
      hotReads(db),
      sql`SELECT name FROM pg_prepared_statements WHERE name = 'paystubs_run_page'`,
    );
    expect(run).toHaveLength(1);
    expect(plans.every((plan) => plan.custom_plans === 0)).toBe(true);
  });
});
