// A settlement (transfers.repo.ts: lockOutcomes, settlePaystubs) reads its outcomes' paystubs by
// their payment references whatever the statistics say: here, those of a paystubs table analysed
// while empty, as a run paid soon after it was made finds them before autovacuum has looked. On
// those statistics the planner read the company's paystubs by `paystubs_company_idx` and filtered
// the references, so each batch of 100 outcomes read the whole company: at 100,000 employees ~1,500
// rows fetched a paystub paid, and the payment took 3× as long a paystub as at 10,000
// (docs/benchmarks.md, "Paystack at scale"). Counted as the rows of paystubs fetched (test/helpers/rows-read.ts).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, createStaff, type TestCompany } from '../../../../test/helpers/factories.js';
import { insertRunOfEveryone } from '../../../../test/helpers/payroll-runs.js';
import { rowsReadBy } from '../../../../test/helpers/rows-read.js';
import { queryRows } from '../../../db/client.js';
import { transfersRepo } from './transfers.repo.js';

let ctx: TestContext;
let company: TestCompany;
let references: string[];
const EMPLOYEES = 1_000;
const BATCH = 100;
const RUN = 'PR-20310301-PLAN02';

beforeAll(async () => {
  ctx = await createTestApp();
  company = await createCompany(ctx.db);
  await createStaff(ctx.db, company.id, EMPLOYEES);
  // Statistics of an empty paystubs table, then a run of one paystub per employee, being paid.
  await ctx.db.execute(sql`VACUUM ANALYZE paystubs`);
  await insertRunOfEveryone(ctx.db, company.id, RUN, {
    status: 'draft',
    start: '2031-03-01',
    end: '2031-03-31',
    paymentDate: '2031-03-28',
  });
  await ctx.db.execute(
    sql`UPDATE paystubs SET status = 'processing', payment_reference = 'PT-PLAN0002-' || id WHERE transaction_id = ${RUN}`,
  );
  const rows = await queryRows<{ reference: string }>(
    ctx.db,
    sql`SELECT payment_reference AS reference FROM paystubs WHERE transaction_id = ${RUN} ORDER BY id LIMIT ${BATCH}`,
  );
  references = rows.map((row) => row.reference);
}, 120_000);
afterAll(() => ctx.close());

it("locks and settles a batch of outcomes reading their own paystubs, not the company's", async () => {
  const outcomes = references.map((reference) => ({ reference, ok: true, reason: null }));
  const { result, rows } = await rowsReadBy(ctx.db, 'paystubs', async (tx) => {
    // At 1,000 paystubs reading the table through is cheaper than 100 probes, and PostgreSQL rightly
    // does so; at 100,000 it is not. With sequential scans off, what is left to see is which index
    // the statements take: the references' key, or the company's.
    await tx.execute(sql`SET LOCAL enable_seqscan = off`);
    await transfersRepo.lockOutcomes(tx, company.id, outcomes);
    return transfersRepo.settlePaystubs(tx, company.id, outcomes);
  });
  expect(result.map((paystub) => paystub.status)).toEqual(outcomes.map(() => 'paid'));
  // Each outcome's paystub twice in each statement (found by its reference, then locked or updated
  // by id): 400. Read through the company's index instead, it was the company's 1,000 twice: 2,000.
  expect(rows).toBeLessThanOrEqual(BATCH * 4);
});

it("does not settle another company's paystub named by its reference", async () => {
  const other = await createCompany(ctx.db);
  const { result } = await rowsReadBy(ctx.db, 'paystubs', async (tx) => {
    await transfersRepo.lockOutcomes(tx, other.id, [{ reference: references[0], ok: true, reason: null }]);
    return transfersRepo.settlePaystubs(tx, other.id, [{ reference: references[0], ok: true, reason: null }]);
  });
  expect(result).toEqual([]);
});
