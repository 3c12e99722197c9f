// The first page of a company whose users come after another company's (a large company that
// joined late): U1's page and the console's unfiltered list take the page's ids from
// users_company_id_idx (company, id) and read only those users, whatever the planner estimates
// (docs/users.md, "Deep pages"). Walking users in id order, PostgreSQL went by users_pkey and read
// every earlier company's user first. Counted here as the heap rows of users a read fetched, in a
// transaction of its own (test/helpers/rows-read.ts), with U1's generic plan forced as the hot-reads
// pool forces it (db/client.ts), on a table vacuumed and analysed (this company most of it).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, createStaff, type TestCompany } from '../../../../test/helpers/factories.js';
import { rowsReadBy } from '../../../../test/helpers/rows-read.js';
import type { Executor } from '../../../db/client.js';
import { USER_ROW } from '../users.flat-row.repo.js';
import { usersReadRepo } from './users.read.repo.js';
import { searchRepo } from './users.search.repo.js';

let ctx: TestContext;
let late: TestCompany;
const EARLIER = 1_000;
const LATE = 1_500;

beforeAll(async () => {
  ctx = await createTestApp();
  const early = await createCompany(ctx.db);
  await createStaff(ctx.db, early.id, EARLIER);
  late = await createCompany(ctx.db);
  await createStaff(ctx.db, late.id, LATE);
  // As autovacuum leaves a table some time after a large import: statistics, and its pages all-visible.
  await ctx.db.execute(sql`VACUUM ANALYZE users`);
});
afterAll(() => ctx.close());

/** `read`'s result and the rows of users it fetched (test/helpers/rows-read.ts). */
const fetched = <T>(read: (tx: Executor) => Promise<T>) => rowsReadBy(ctx.db, 'users', read);

describe("a late company's first page", () => {
  it("U1 reads the page's users, not the earlier companies'", async () => {
    const { result, rows } = await fetched((tx) => usersReadRepo.page(tx, late.id, 0, 20));
    expect(result.rows).toHaveLength(20);
    expect(result.rows.every((row) => row[USER_ROW.companyId] === late.id)).toBe(true);
    expect(result.total).toBe(LATE);
    // 20 page rows (the joins read user types and managers by key); walking users_pkey read 1,020.
    expect(rows).toBeLessThan(60);
  });

  it("the console's unfiltered list reads the page's users, in both directions", async () => {
    const first = await fetched((tx) => searchRepo.search(tx, late.id, { offset: 0, limit: 25 }));
    expect(first.result.rows.map((row) => row.user.companyId)).toEqual(Array(25).fill(late.id));
    expect(first.result.total).toBe(LATE);
    expect(first.rows).toBeLessThan(100);
    const last = await fetched((tx) => searchRepo.search(tx, late.id, { offset: LATE - 10, limit: 25 }));
    expect(last.result.rows).toHaveLength(10);
    const ids = first.result.rows.map((row) => row.user.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const newest = await fetched((tx) => searchRepo.search(tx, late.id, { order: 'desc', offset: 0, limit: 25 }));
    expect(newest.result.rows[0].user.id).toBe(Math.max(...last.result.rows.map((row) => row.user.id)));
    expect(newest.rows).toBeLessThan(100);
  });
});
