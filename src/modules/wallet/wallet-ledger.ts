// Spending the wallet (payroll runs) and reading its ledger; the SQL is in wallet.repo.ts. The
// balance lives in wallet_balances, moved by a trigger with every entry (0081_wallet_balances.sql)
// and CHECK (balance >= 0), so no entry of any path can take a balance below zero. A debit first
// locks the balance row (`lockBalance`), so the answer "is there enough?" holds until commit.
import type { Executor } from '../../db/client.js';
import { isoTimestamp } from '../../platform/format.js';
import { type LedgerRow, type LedgerType, type Refund, walletRepo } from './wallet.repo.js';

export type { LedgerRow, LedgerType, Refund } from './wallet.repo.js';

export const walletLedger = {
  /** The balance (decimal text), row-locked until the caller's transaction ends. */
  lockBalance: (tx: Executor, companyId: number): Promise<string> => walletRepo.lockBalance(tx, companyId),

  /** One debit entry; the database refuses it (CHECK) if the balance cannot cover it. Returns balance_after. */
  debit: (tx: Executor, companyId: number, entry: { reference: string; amount: string; description: string }): Promise<string> =>
    walletRepo.insertDebit(tx, companyId, entry),

  /** Refund entries, one statement. A second refund of one reference violates the unique index. */
  refund: (tx: Executor, refunds: readonly Refund[]): Promise<void> => walletRepo.insertRefunds(tx, refunds),

  count: (db: Executor, companyId: number): Promise<number> => walletRepo.countLedger(db, companyId),

  /** Newest first. */
  page: (db: Executor, companyId: number, limit: number, offset: number): Promise<LedgerRow[]> =>
    walletRepo.ledgerPage(db, companyId, limit, offset),
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
