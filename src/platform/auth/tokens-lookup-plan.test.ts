// Authentication's lookup (tokens.repo.ts, `findByHashWithGeneration`) reads the token by its hash
// and its company by its key whatever the statistics say: here, those of api_tokens analysed when
// there were three companies, as a busy platform's statistics lag behind its newest companies. On
// those statistics the plain join's generic plan was a merge join walking `companies_pkey` from the
// first company up to the token's: every earlier company, read at every cache miss
// (docs/decisions.md, "Authentication cache"). Counted as the rows fetched (test/helpers/rows-read.ts).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../../test/helpers/factories.js';
import { rowsReadBy } from '../../../test/helpers/rows-read.js';
import type { Executor } from '../../db/client.js';
import { hashToken } from './tokens.js';
import { tokensRepo } from './tokens.repo.js';

let ctx: TestContext;
let late: TestCompany;
const EARLIER_COMPANIES = 100;

beforeAll(async () => {
  ctx = await createTestApp();
  for (let i = 0; i < 3; i++) await createCompany(ctx.db);
  await ctx.db.execute(sql`ANALYZE api_tokens`);
  for (let i = 0; i < EARLIER_COMPANIES; i++) await createCompany(ctx.db);
  await ctx.db.execute(sql`ANALYZE companies`);
  late = await createCompany(ctx.db);
}, 180_000);
afterAll(() => ctx.close());

/** The lookup of the late company's token, with sequential scans off: what is left to see is which index it takes. */
async function lookup(tx: Executor) {
  await tx.execute(sql`SET LOCAL enable_seqscan = off`);
  return tokensRepo.findByHashWithGeneration(tx, hashToken(late.token));
}

it("reads the token's own company, not the companies created before it", async () => {
  const { result, rows } = await rowsReadBy(ctx.db, 'companies', lookup);
  expect(result.record?.companyId).toBe(late.id);
  // One row, by its key. Through the merge join it was every company up to the token's (105).
  expect(rows).toBe(1);
  expect((await rowsReadBy(ctx.db, 'api_tokens', lookup)).rows).toBe(1);
});

it('still answers the generation for a token nobody has', async () => {
  const { result } = await rowsReadBy(ctx.db, 'companies', (tx) => tokensRepo.findByHashWithGeneration(tx, hashToken('nobody')));
  expect(result.record).toBeUndefined();
  expect(Number.isInteger(result.generation)).toBe(true);
});
