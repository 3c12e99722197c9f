// C1's page (companies.repo.ts `pageCreatedBy`): one prepared statement carrying the number of the
// owner's companies; an empty page counts it on its own; the rows are what the old select read (the
// timestamps as PostgreSQL's text) and serialize to the same Company; a
// transaction reads through itself; on PostgreSQL the page keeps its generic plan on the hot pool.
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/database.js';
import { createCompany, type TestCompany } from '../../../test/helpers/factories.js';
import { hotReads, queryRows } from '../../db/client.js';
import { companies } from '../../db/schema/index.js';
import { companiesRepo, type ListedCompanyRow } from './companies.repo.js';
import { serializeCompany } from './companies.serializer.js';

let testDb: TestDatabase;
let parent: TestCompany;
let lonely: TestCompany;
const CHILDREN = 7;

beforeAll(async () => {
  testDb = await createTestDatabase();
  const { db } = testDb.database;
  parent = await createCompany(db);
  lonely = await createCompany(db);
  const children: TestCompany[] = [];
  for (let i = 0; i < CHILDREN; i++) children.push(await createCompany(db, { createdBy: parent.id }));
  // A grandchild is its parent's company, not the grandparent's.
  await createCompany(db, { createdBy: children[0].id });
});
afterAll(() => testDb.close());

describe('C1 page', () => {
  it('rows as the old select read them, the exact total on every page and past the end; none for a company without children', async () => {
    const { db } = testDb.database;
    const all = await db.select().from(companies).where(eq(companies.createdBy, parent.id)).orderBy(asc(companies.id));
    expect(all).toHaveLength(CHILDREN);
    for (const [offset, limit] of [
      [0, 3],
      [3, 3],
      [6, 3],
      [0, 100],
      [CHILDREN, 3],
      [CHILDREN + 5, 3],
    ]) {
      const { rows, total } = await companiesRepo.pageCreatedBy(db, parent.id, offset, limit);
      expect(total).toBe(CHILDREN);
      const expected = all.slice(offset, offset + limit);
      // Every column as the select read it but the timestamps, which come as PostgreSQL's text of the same instants.
      expect(rows.map(({ total: _, createdAt, updatedAt, ...row }: ListedCompanyRow & { total?: number | null }) => row)).toEqual(
        expected.map(({ createdAt, updatedAt, ...row }) => row),
      );
      expect(rows.flatMap((row) => [typeof row.createdAt, typeof row.updatedAt])).toEqual(expected.flatMap(() => ['string', 'string']));
      // And the Company the API answers is the same, byte for byte.
      expect(JSON.stringify(rows.map(serializeCompany))).toBe(JSON.stringify(expected.map(serializeCompany)));
    }
    expect(await companiesRepo.pageCreatedBy(db, lonely.id, 0, 10)).toEqual({ rows: [], total: 0 });
  });

  it('a transaction reads through itself', async () => {
    const { db } = testDb.database;
    await db
      .transaction(async (tx) => {
        await createCompany(tx, { createdBy: lonely.id });
        const page = await companiesRepo.pageCreatedBy(tx, lonely.id, 0, 10);
        expect([page.rows.length, page.total]).toEqual([1, 1]);
        throw new Error('rollback');
      })
      .catch((error: Error) => expect(error.message).toBe('rollback'));
    expect(await companiesRepo.pageCreatedBy(db, lonely.id, 0, 10)).toEqual({ rows: [], total: 0 });
  });
});

describe.skipIf(!process.env.DATABASE_URL)('C1 on PostgreSQL', () => {
  it('the page keeps its generic plan on the hot pool', async () => {
    const { db } = testDb.database;
    for (let i = 0; i < 8; i++) await companiesRepo.pageCreatedBy(db, parent.id, i % 3, 2 + (i % 2));
    const plans = await queryRows<{ custom_plans: number; generic_plans: number }>(
      hotReads(db),
      sql`SELECT custom_plans::int AS custom_plans, generic_plans::int AS generic_plans FROM pg_prepared_statements WHERE name = 'companies_page'`,
    );
    expect(plans).toHaveLength(1);
    expect(plans[0].custom_plans).toBe(0);
    expect(plans[0].generic_plans).toBeGreaterThanOrEqual(8);
  });
});
