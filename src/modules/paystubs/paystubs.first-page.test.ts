// P1's unfiltered page of a company whose paystubs are not the newest (on a shared database, every
// company but the last to pay): its ids come from paystubs_company_idx (company, id DESC), then only
// those rows are read (paystubs.read.repo.ts, COMPANY_PAGE_IDS), on the JS path and the JSON path
// alike. Walking paystubs newest first, the generic plan went by paystubs_pkey and read every later
// company's paystubs first. Counted as the heap rows of paystubs a read fetched, in a transaction of
// its own (pg_stat_xact_user_tables, before and after: test/helpers/rows-read.ts), with the hot-reads pool's generic plans forced (db/client.ts),
// on a table vacuumed and analysed as autovacuum leaves it. The JSON page is counted when it writes and keeps its texts, when another instance reads them kept in the
// database, and when the instance reads them kept in itself (paystubs.list-text.service.ts).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createStaff, type TestCompany } from '../../../test/helpers/factories.js';
import { insertRunOfEveryone } from '../../../test/helpers/payroll-runs.js';
import { rowsReadBy } from '../../../test/helpers/rows-read.js';
import type { Executor } from '../../db/client.js';
import { createPaystubTexts } from './paystubs.list-text.service.js';
import { paystubsReadRepo } from './paystubs.read.repo.js';

let ctx: TestContext;
let early: TestCompany;
const EARLY = 30;
const LATER = 1_200;

const paidRun = (db: Executor, companyId: number, runId: string) =>
  insertRunOfEveryone(db, companyId, runId, { status: 'paid', start: '2031-01-01', end: '2031-01-31', paymentDate: '2031-01-30' });

beforeAll(async () => {
  ctx = await createTestApp();
  early = await createCompany(ctx.db);
  await createStaff(ctx.db, early.id, EARLY);
  await paidRun(ctx.db, early.id, `PR-EARLY-${early.id}`);
  const later = await createCompany(ctx.db);
  await createStaff(ctx.db, later.id, LATER);
  await paidRun(ctx.db, later.id, `PR-LATER-${later.id}`);
  await ctx.db.execute(sql`VACUUM ANALYZE paystubs`);
});
afterAll(() => ctx.close());

/** `read`'s result and the rows of paystubs it fetched (test/helpers/rows-read.ts). */
const fetched = <T>(read: (tx: Executor) => Promise<T>) => rowsReadBy(ctx.db, 'paystubs', read);

describe("P1's unfiltered page of a company that paid before another", () => {
  it("reads the page's paystubs, not the later company's", async () => {
    const { result, rows } = await fetched((tx) => paystubsReadRepo.page(tx, early.id, {}, 0, 20));
    expect(result.rows).toHaveLength(20);
    expect(result.rows.every((row) => row.company_id === early.id)).toBe(true);
    expect(result.total).toBe(EARLY);
    // 20 rows of the page (and LOAN_BALANCE_AFTER's reads of none); walking paystubs_pkey read 1,220.
    expect(rows).toBeLessThan(60);
  });

  it('and so does the page as JSON text: read whole and kept, read whole from the database, and read from the instance', async () => {
    const page = { transactionId: undefined, offset: 0, limit: 20 };
    const read = (texts: ReturnType<typeof createPaystubTexts>) => (tx: Executor) => texts(tx, early.id, page);
    // An instance's first read of the page: the page with its parts written, and the join that keeps them (20 rows each).
    const writing = await fetched(read(createPaystubTexts()));
    // Another instance (nothing kept in it) after a read that kept the texts in the database: the page with its parts.
    await createPaystubTexts()(ctx.db, early.id, page);
    const instance = createPaystubTexts();
    const fromDatabase = await fetched(read(instance));
    // The same instance again: the page's places alone.
    const kept = await fetched(read(instance));
    for (const { result } of [writing, fromDatabase, kept]) {
      expect(result.paystubs).toHaveLength(20);
      expect(result.total).toBe(EARLY);
      expect(result.paystubs.every((text) => (JSON.parse(text) as { company_id: number }).company_id === early.id)).toBe(true);
      expect(result).toEqual(writing.result);
    }
    expect(writing.rows).toBeLessThan(60);
    expect(fromDatabase.rows).toBeLessThan(30);
    expect(kept.rows).toBeLessThan(30);
  });
});
