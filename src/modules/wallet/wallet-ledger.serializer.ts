// A ledger entry as GET /api/wallet/transactions and the wallet.* webhook events show it.
import { isoTimestamp } from '../../platform/format.js';
import type { LedgerRow, LedgerType } from './wallet.repo.js';

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
