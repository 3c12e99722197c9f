// 0181_wallet_ledger_seq.sql numbers the entries already written in the order they were listed in
// (id), per company, and the balance row continues from there (docs/payroll-runs.md, "The ledger").
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createTestDatabase } from '../../../test/helpers/database.js';
import { createCompanyAsOfOldMigration, type TestCompany, withToken } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { queryRows } from '../../db/client.js';
import { migrate } from '../../db/migrate.js';

let ctx: TestContext;
let acme: TestCompany;
let other: { id: number };

const entry = (companyId: number, amount: string, kind: string, reference: string) =>
  sql`INSERT INTO wallet_entries (company_id, amount, kind, reference) VALUES (${companyId}, ${amount}::numeric, ${kind}, ${reference})`;

beforeAll(async () => {
  // Built as before 0181 with entries of two companies interleaved, so the backfill is tested.
  const testDb = await createTestDatabase({ migrateThrough: '0180' });
  const db = testDb.database.db;
  const acmeRow = await createCompanyAsOfOldMigration(db, 'Acme Ledger Ltd');
  other = await createCompanyAsOfOldMigration(db, 'Other Ledger Ltd');
  await db.execute(entry(acmeRow.id, '1000.00', 'payroll_refund', 'OLD-1'));
  await db.execute(entry(other.id, '5.00', 'payroll_refund', 'OLD-2'));
  await db.execute(entry(acmeRow.id, '-250.50', 'payroll_debit', 'OLD-3'));
  await db.execute(entry(acmeRow.id, '20.25', 'payroll_refund', 'OLD-4'));
  await migrate(testDb.database);
  ctx = await createTestApp({}, testDb);
  acme = await withToken(ctx.db, acmeRow);
});
afterAll(() => ctx.close());

const seqs = (companyId: number) =>
  queryRows<{ reference: string; ledger_seq: number }>(
    ctx.db,
    sql`SELECT reference, ledger_seq::int AS ledger_seq FROM wallet_entries WHERE company_id = ${companyId} ORDER BY id`,
  );

describe('0181 numbers the existing ledger', () => {
  it('keeps each company’s entries in their id order, 1..n, and new entries continue the count', async () => {
    expect(await seqs(acme.id)).toEqual([
      { reference: 'OLD-1', ledger_seq: 1 },
      { reference: 'OLD-3', ledger_seq: 2 },
      { reference: 'OLD-4', ledger_seq: 3 },
    ]);
    expect(await seqs(other.id)).toEqual([{ reference: 'OLD-2', ledger_seq: 1 }]);
    await ctx.db.execute(entry(acme.id, '-100.00', 'payroll_debit', 'NEW-1'));
    await ctx.db.execute(entry(other.id, '1.00', 'payroll_refund', 'NEW-2'));
    expect((await seqs(acme.id)).at(-1)).toEqual({ reference: 'NEW-1', ledger_seq: 4 });
    expect((await seqs(other.id)).at(-1)).toEqual({ reference: 'NEW-2', ledger_seq: 2 });

    const res = await as(ctx.app, acme).get('/api/wallet/transactions');
    expect(res.statusCode, res.body).toBe(200);
    const listed = res
      .json()
      .data.data.map((e: { reference: string; amount: string; balance_after: string }) => [e.reference, e.amount, e.balance_after]);
    expect(listed).toEqual([
      ['NEW-1', '-100.00', '669.75'],
      ['OLD-4', '20.25', '769.75'],
      ['OLD-3', '-250.50', '749.50'],
      ['OLD-1', '1000.00', '1000.00'],
    ]);
  });

  it('a rolled-back entry leaves no hole in the numbers (the count is moved with the balance)', async () => {
    await expect(ctx.db.execute(entry(acme.id, '-1000000.00', 'payroll_debit', 'TOO-MUCH'))).rejects.toThrow();
    await ctx.db.execute(entry(acme.id, '1.00', 'payroll_refund', 'NEW-3'));
    expect((await seqs(acme.id)).map((e) => e.ledger_seq)).toEqual([1, 2, 3, 4, 5]);
  });
});
