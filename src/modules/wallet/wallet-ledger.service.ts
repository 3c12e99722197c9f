// Spending the wallet (payroll runs) and reading its ledger; the SQL is in wallet.repo.ts. The
// balance lives in wallet_balances, moved by a trigger with every entry (0081_wallet_balances.sql)
// and CHECK (balance >= 0), so no entry of any path can take a balance below zero. A debit first
// locks the balance row (`lockBalance`), so the answer "is there enough?" holds until commit.
import type { Executor } from '../../db/client.js';
import { announceLedgerEntries } from './wallet.events.js';
import { type LedgerRow, type Refund, walletRepo } from './wallet.repo.js';

export type { LedgerRow, LedgerType, Refund } from './wallet.repo.js';

export const walletLedger = {
  /** The balance (decimal text), row-locked until the caller's transaction ends. */
  lockBalance: (tx: Executor, companyId: number): Promise<string> => walletRepo.lockBalance(tx, companyId),

  /** One debit entry; the database refuses it (CHECK) if the balance cannot cover it. Returns balance_after. */
  async debit(tx: Executor, companyId: number, entry: { reference: string; amount: string; description: string }): Promise<string> {
    const balanceAfter = await walletRepo.insertDebit(tx, companyId, entry);
    await announceLedgerEntries(tx, 'payroll_debit', [entry.reference]);
    return balanceAfter;
  },

  /** Refund entries, one statement. A second refund of one reference violates the unique index. */
  async refund(tx: Executor, refunds: readonly Refund[]): Promise<void> {
    if (refunds.length === 0) return;
    await walletRepo.insertRefunds(tx, refunds);
    await announceLedgerEntries(
      tx,
      'payroll_refund',
      refunds.map((r) => r.reference),
    );
  },

  count: (db: Executor, companyId: number): Promise<number> => walletRepo.countLedger(db, companyId),

  /** Newest first. */
  page: (db: Executor, companyId: number, limit: number, offset: number): Promise<LedgerRow[]> =>
    walletRepo.ledgerPage(db, companyId, limit, offset),
};

/**
 * The exactly-once top-up credit (walletRepo.creditIfPending) and, when this call won it, its
 * wallet.credited event, both in the caller's transaction. Returns true if credited.
 */
export async function creditTopUpOnce(tx: Executor, reference: string, payload: unknown): Promise<boolean> {
  const credited = await walletRepo.creditIfPending(tx, reference, payload);
  if (credited) await announceLedgerEntries(tx, 'top_up', [reference]);
  return credited;
}

export { serializeLedgerEntry } from './wallet-ledger.serializer.js';
