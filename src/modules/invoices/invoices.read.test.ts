// I1/I2's reads (invoices.repo.ts `list`, `find`): the page carries the total of its filter, an
// empty page counts it on its own, the prepared default page and find answer exactly what the
// statements they replaced answered, a transaction reads through itself, and on PostgreSQL the
// prepared statements keep their generic plans on the hot pool.
import { and, asc, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/database.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { withInstants } from '../../../test/helpers/instants.js';
import { type Executor, hotReads, queryRows } from '../../db/client.js';
import { invoices } from '../../db/schema/index.js';
import { invoicesRepo, type ListFilter, SORT_COLUMNS } from './invoices.repo.js';
import { serializeInvoice } from './invoices.serializer.js';

let testDb: TestDatabase;
let acme: TestCompany;
let empty: TestCompany;

async function insertInvoices(db: Executor, companyId: number, prefix: string, n: number) {
  const [user] = await createUsers(db, companyId, [{}]);
  await db.execute(
    sql`INSERT INTO invoices (company_id, user_id, user_email, transaction_id, description, service_date, provider_name, total_amount,
          amount_requested, balance, status, approval_status, category_name, created_at, manager_decided_at)
        SELECT ${companyId}, ${user.id}, 'a@b.test', ${prefix} || n, 'Claim ' || n, date '2026-01-01' + n, 'Provider ' || (n % 4),
               100 + n * 10.5, 100, 100, (ARRAY['unpaid', 'pending', 'paid'])[1 + n % 3],
               (ARRAY['pending', 'manager_approved', 'approved'])[1 + n % 3], 'Health',
               -- every fifth shares its creation time with the next: id breaks the tie
               '2026-02-01 10:00:00.123456+00'::timestamptz + (n - n % 5) * interval '1 minute',
               CASE WHEN n % 2 = 0 THEN '2026-03-04 05:06:07.891234+00'::timestamptz END
        FROM generate_series(1, ${n}) AS n`,
  );
}

/** I1 before the read-path work: the page and a count, each its own statement. */
async function reference(db: Executor, companyId: number, filter: ListFilter) {
  const conditions: SQL[] = [eq(invoices.companyId, companyId), isNull(invoices.deletedAt)];
  if (filter.transactionId !== undefined) conditions.push(eq(invoices.transactionId, filter.transactionId));
  if (filter.status !== undefined) conditions.push(eq(invoices.status, filter.status));
  if (filter.approvalStatus !== undefined) conditions.push(eq(invoices.approvalStatus, filter.approvalStatus));
  const direction = filter.order === 'asc' ? asc : desc;
  const rows = await db
    .select()
    .from(invoices)
    .where(and(...conditions))
    .orderBy(direction(SORT_COLUMNS[filter.sort]), direction(invoices.id))
    .limit(filter.limit)
    .offset(filter.offset);
  const [{ value }] = await db
    .select({ value: count() })
    .from(invoices)
    .where(and(...conditions));
  return { rows, total: value };
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  const { db } = testDb.database;
  acme = await createCompany(db);
  empty = await createCompany(db);
  await insertInvoices(db, acme.id, 'INV-A-', 23);
  await insertInvoices(db, empty.id, 'INV-OTHER-', 0);
  const stranger = await createCompany(db);
  await insertInvoices(db, stranger.id, 'INV-S-', 4);
  await db.execute(sql`UPDATE invoices SET deleted_at = now() WHERE transaction_id IN ('INV-A-3', 'INV-A-20')`);
});
afterAll(() => testDb.close());

const base: ListFilter = { sort: 'created_at', order: 'desc', offset: 0, limit: 10 };

describe('I1 and I2 reads', () => {
  const cases: [string, Partial<ListFilter>][] = [
    ['the default (prepared)', {}],
    ['a status', { status: 'paid' }],
    ['an approval status', { approvalStatus: 'manager_approved' }],
    ['a transaction id', { transactionId: 'INV-A-7' }],
    ['a deleted transaction id', { transactionId: 'INV-A-3' }],
    ['status and approval status', { status: 'unpaid', approvalStatus: 'pending' }],
    ['another sort, ascending', { sort: 'total_amount', order: 'asc' }],
    ['created_at ascending', { order: 'asc' }],
  ];
  for (const [label, filter] of cases) {
    it(`page and total, ${label}: what the two old statements answered, on every page and past the end`, async () => {
      const { db } = testDb.database;
      const truth = (await reference(db, acme.id, { ...base, ...filter, offset: 0, limit: 1000 })).total;
      for (const [offset, limit] of [
        [0, 4],
        [4, 4],
        [8, 20],
        [0, 100],
        [truth, 5],
        [truth + 7, 5],
      ]) {
        const query = { ...base, ...filter, offset, limit };
        const { rows, total } = await invoicesRepo.list(db, acme.id, query);
        const expected = await reference(db, acme.id, query);
        // Every column as the old statements read it, timestamps as the instants the API writes (the
        // prepared page reads them as PostgreSQL's text, the others as Dates), and the same Invoice;
        // the prepared page's rows also carry their version (invoices.list-text.service.ts).
        const columns = rows.map(({ total: _, version: __, ...row }: Record<string, unknown>) => withInstants(row));
        expect({ rows: columns, total }).toEqual({
          ...expected,
          rows: expected.rows.map(withInstants),
        });
        expect(JSON.stringify(rows.map(serializeInvoice))).toBe(JSON.stringify(expected.rows.map(serializeInvoice)));
      }
    });
  }

  it('a company without invoices: empty page, total 0', async () => {
    expect(await invoicesRepo.list(testDb.database.db, empty.id, base)).toEqual({ rows: [], total: 0 });
    expect(await invoicesRepo.list(testDb.database.db, empty.id, { ...base, status: 'paid' })).toEqual({ rows: [], total: 0 });
  });

  it("find: a live invoice of the company as the old select read it; a deleted or another company's is not found", async () => {
    const { db } = testDb.database;
    const [old] = await db
      .select()
      .from(invoices)
      .where(and(eq(invoices.companyId, acme.id), eq(invoices.transactionId, 'INV-A-8'), isNull(invoices.deletedAt)));
    expect(await invoicesRepo.find(db, acme.id, 'INV-A-8')).toEqual(old);
    expect(await invoicesRepo.find(db, acme.id, 'INV-A-3')).toBeUndefined();
    expect(await invoicesRepo.find(db, empty.id, 'INV-A-8')).toBeUndefined();
  });

  it('a transaction reads through itself', async () => {
    const { db } = testDb.database;
    const before = (await invoicesRepo.list(db, acme.id, base)).total;
    await db
      .transaction(async (tx) => {
        await tx.execute(sql`UPDATE invoices SET created_at = '2030-01-01 00:00:00+00' WHERE transaction_id = 'INV-A-1'`);
        await tx.execute(sql`UPDATE invoices SET deleted_at = now() WHERE transaction_id = 'INV-A-2'`);
        const page = await invoicesRepo.list(tx, acme.id, { ...base, limit: 1 });
        expect([page.total, page.rows[0].transactionId]).toEqual([before - 1, 'INV-A-1']);
        expect(await invoicesRepo.find(tx, acme.id, 'INV-A-2')).toBeUndefined();
        throw new Error('rollback');
      })
      .catch((error: Error) => expect(error.message).toBe('rollback'));
    expect((await invoicesRepo.list(db, acme.id, base)).total).toBe(before);
    expect(await invoicesRepo.find(db, acme.id, 'INV-A-2')).toBeDefined();
  });
});

describe.skipIf(!process.env.DATABASE_URL)('I1 and I2 on PostgreSQL', () => {
  it('the default page and find keep their generic plans on the hot pool', async () => {
    const { db } = testDb.database;
    for (let i = 0; i < 8; i++) {
      await invoicesRepo.list(db, acme.id, { ...base, offset: i % 3, limit: 2 + (i % 2) });
      await invoicesRepo.find(db, acme.id, `INV-A-${4 + i}`);
    }
    const plans = await queryRows<{ name: string; custom_plans: number }>(
      hotReads(db),
      sql`SELECT name, custom_plans::int AS custom_plans FROM pg_prepared_statements WHERE name LIKE 'invoices_%' ORDER BY name`,
    );
    expect(plans.map((plan) => plan.name)).toEqual(['invoices_find', 'invoices_page']);
    expect(plans.every((plan) => plan.custom_plans === 0)).toBe(true);
  });
});
