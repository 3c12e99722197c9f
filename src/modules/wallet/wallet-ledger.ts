// Spending the wallet (payroll runs) and reading its ledger. The balance is the sum of the ledger;
// wallet_balances mirrors it, moved by a trigger with every entry (0081_wallet_balances.sql) and
// CHECK (balance >= 0), so no entry of any path can take a balance below zero. A debit first
// locks the balance row (`lockBalance`), so the answer "is there enough?" holds until commit.
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import { isoTimestamp } from '../../platform/format.js';
import { recordEvents } from '../webhooks/index.js';

export type LedgerType = 'top_up' | 'payroll_debit' | 'payroll_refund';

export interface LedgerRow {
  id: number;
  kind: LedgerType;
  amount: string;
  balance_after: string | null;
  reference: string | null;
  description: string | null;
  created_at: Date | string;
}

export interface Refund {
  companyId: number;
  /** The failed transfer's reference: one refund per reference (unique index). */
  reference: string;
  amount: string;
  description: string;
}

export const walletLedger = {
  /** The balance (decimal text), row-locked until the caller's transaction ends. */
  async lockBalance(tx: Executor, companyId: number): Promise<string> {
    const rows = await queryRows<{ balance: string }>(
      tx,
      sql`SELECT balance::text AS balance FROM wallet_balances WHERE company_id = ${companyId} FOR UPDATE`,
    );
    return rows[0]?.balance ?? '0.00';
  },

  /** One debit entry; the database refuses it (CHECK) if the balance cannot cover it. Returns balance_after. */
  async debit(tx: Executor, companyId: number, entry: { reference: string; amount: string; description: string }): Promise<string> {
    const rows = await queryRows<{ balance_after: string }>(
      tx,
      sql`INSERT INTO wallet_entries (company_id, amount, kind, reference, description)
          VALUES (${companyId}, -(${entry.amount}::numeric), 'payroll_debit', ${entry.reference}, ${entry.description})
          RETURNING balance_after::text AS balance_after`,
    );
    await announceLedgerEntries(tx, 'payroll_debit', [entry.reference]);
    return rows[0].balance_after;
  },

  /** Refund entries, one statement. A second refund of one reference violates the unique index. */
  async refund(tx: Executor, refunds: readonly Refund[]): Promise<void> {
    if (refunds.length === 0) return;
    const col = (pick: (r: Refund) => string | number) => pgArray(refunds.map(pick));
    await tx.execute(
      sql`INSERT INTO wallet_entries (company_id, amount, kind, reference, description)
          SELECT c, m, 'payroll_refund', r, d FROM unnest(${col((r) => r.companyId)}::int[], ${col((r) => r.amount)}::numeric[],
            ${col((r) => r.reference)}::text[], ${col((r) => r.description)}::text[]) AS x(c, m, r, d)`,
    );
    await announceLedgerEntries(
      tx,
      'payroll_refund',
      refunds.map((r) => r.reference),
    );
  },

  async count(db: Executor, companyId: number): Promise<number> {
    const [row] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM wallet_entries WHERE company_id = ${companyId}`);
    return row.n;
  },

  /** Newest first. */
  async page(db: Executor, companyId: number, limit: number, offset: number): Promise<LedgerRow[]> {
    return queryRows<LedgerRow>(
      db,
      sql`SELECT id, kind, amount::text AS amount, balance_after::text AS balance_after,
                 COALESCE(reference, transaction_reference) AS reference, description, created_at
          FROM wallet_entries WHERE company_id = ${companyId} ORDER BY id DESC LIMIT ${limit} OFFSET ${offset}`,
    );
  },
};

const DEFAULT_DESCRIPTION: Record<LedgerType, string> = {
  top_up: 'Wallet top-up',
  payroll_debit: 'Payroll run',
  payroll_refund: 'Refund of a failed salary transfer',
};

/** `amount` and `balance_after` are signed decimal strings with two places. */
export function serializeLedgerEntry(row: LedgerRow) {
  return {
    id: row.id,
    type: row.kind,
    amount: row.amount,
    balance_after: row.balance_after,
    reference: row.reference,
    description: row.description ?? DEFAULT_DESCRIPTION[row.kind],
    created_at: isoTimestamp(row.created_at),
  };
}

/** wallet.credited / wallet.debited (docs/webhooks.md): the entries just written, read back in the same transaction. */
export async function announceLedgerEntries(tx: Executor, kind: LedgerType, references: string[]): Promise<void> {
  if (references.length === 0) return;
  const rows = await queryRows<LedgerRow & { company_id: number }>(
    tx,
    sql`SELECT id, company_id, kind, amount::text AS amount, balance_after::text AS balance_after,
               COALESCE(reference, transaction_reference) AS reference, description, created_at
        FROM wallet_entries WHERE kind = ${kind} AND COALESCE(reference, transaction_reference) = ANY(${pgArray(references)}::text[])`,
  );
  await recordEvents(
    tx,
    rows.map((row) => ({
      companyId: row.company_id,
      type: kind === 'payroll_debit' ? ('wallet.debited' as const) : ('wallet.credited' as const),
      data: serializeLedgerEntry(row),
    })),
  );
}
