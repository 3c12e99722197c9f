// S6's read (custom-contributions.repo.ts `listWithTargets`, one statement): the company's custom
// contributions and the targets of exactly those, as the old two statements read them (list, then
// targets of its ids; timestamps now PostgreSQL's text of the same instants); another company's are
// never included; a transaction reads through itself.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/database.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { withInstants } from '../../../test/helpers/instants.js';
import { type Executor, hotReads, queryRows } from '../../db/client.js';
import type { TextTimestamps } from '../../db/prepared.js';
import { type CustomContributionRow, customContributionsRepo, type TargetRow } from './custom-contributions.repo.js';
import { serializeCustomContribution } from './custom-contributions.service.js';

let testDb: TestDatabase;
let acme: TestCompany;
let other: TestCompany;
let empty: TestCompany;

async function seed(db: Executor, company: TestCompany, names: string[]) {
  const [user] = await createUsers(db, company.id, [{}]);
  const [type] = await queryRows<{ id: number }>(db, sql`SELECT id FROM user_types WHERE company_id = ${company.id} ORDER BY id LIMIT 1`);
  for (const name of names) {
    const row = await customContributionsRepo.insert(db, company.id, {
      name,
      type: 'amount',
      applyTo: 'gross_pay',
      employeeResponsibility: true,
      employeeValue: '1500.50',
      frequency: 'per_paystub',
    });
    if (name.endsWith('targeted')) await customContributionsRepo.replaceTargets(db, row.id, [type.id], [user.id]);
  }
}

/** S6 before the read-path work: the list, then the targets of its ids. */
async function reference(db: Executor, companyId: number) {
  const rows = await db.query.customContributions.findMany({
    where: (c, { eq }) => eq(c.companyId, companyId),
    orderBy: (c, { asc }) => asc(c.id),
  });
  return {
    rows: rows as CustomContributionRow[],
    targets: await customContributionsRepo.targets(
      db,
      rows.map((row) => row.id),
    ),
  };
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  const { db } = testDb.database;
  acme = await createCompany(db);
  other = await createCompany(db);
  empty = await createCompany(db);
  await seed(db, acme, ['Welfare targeted', 'Union dues', 'Gym targeted']);
  await seed(db, other, ['Other targeted']);
});
afterAll(() => testDb.close());

describe('S6 list', () => {
  it("the company's contributions and their targets, as the two old statements read them", async () => {
    const { db } = testDb.database;
    const listed = await customContributionsRepo.listWithTargets(db, acme.id);
    expect(listed.rows.map((row) => row.name)).toEqual(['Welfare targeted', 'Union dues', 'Gym targeted']);
    expect(listed.targets).toHaveLength(4);
    const expected = await reference(db, acme.id);
    // Every column as the old statements read it, timestamps as the instants the API writes (read
    // now as PostgreSQL's text, then as Dates), and the same custom contributions serialized.
    expect({ rows: listed.rows.map(withInstants), targets: listed.targets.map(withInstants) }).toEqual({
      rows: expected.rows.map(withInstants),
      targets: expected.targets.map(withInstants),
    });
    expect(listed.targets.every((target) => typeof target.createdAt === 'string')).toBe(true);
    const serialized = (page: { rows: TextTimestamps<CustomContributionRow>[]; targets: TextTimestamps<TargetRow>[] }) =>
      JSON.stringify(
        page.rows.map((row) =>
          serializeCustomContribution(
            row,
            page.targets.filter((t) => t.customContributionId === row.id),
          ),
        ),
      );
    expect(serialized(listed)).toBe(serialized(expected));
    expect(await customContributionsRepo.listWithTargets(db, empty.id)).toEqual({ rows: [], targets: [] });
  });

  it('a transaction reads through itself', async () => {
    const { db } = testDb.database;
    await db
      .transaction(async (tx) => {
        await seed(tx, empty, ['Fresh targeted']);
        const listed = await customContributionsRepo.listWithTargets(tx, empty.id);
        expect([listed.rows.length, listed.targets.length]).toEqual([1, 2]);
        throw new Error('rollback');
      })
      .catch((error: Error) => expect(error.message).toBe('rollback'));
    expect(await customContributionsRepo.listWithTargets(db, empty.id)).toEqual({ rows: [], targets: [] });
  });
});

describe.skipIf(!process.env.DATABASE_URL)('S6 on PostgreSQL', () => {
  it('the statement keeps its generic plan on the hot pool', async () => {
    const { db } = testDb.database;
    for (let i = 0; i < 8; i++) await customContributionsRepo.listWithTargets(db, acme.id);
    // Look at the connection of the hot pool this query gets (the reads may have used others).
    const plans = await queryRows<{ name: string; custom_plans: number }>(
      hotReads(db),
      sql`SELECT name, custom_plans::int AS custom_plans FROM pg_prepared_statements WHERE name = 'custom_contributions_with_targets'`,
    );
    expect(plans.length).toBeGreaterThan(0);
    expect(plans.every((plan) => plan.custom_plans === 0)).toBe(true);
  });
});
