// Wire shapes of the wallet: amounts as JSON numbers in NGN (exact to the kobo), UTC timestamps.
import type { walletEntries } from '../../db/schema/index.js';
import { isoTimestamp } from '../../platform/format.js';
import { decimalToNumber } from './money.js';
import type { WalletTransactionRow } from './wallet.repo.js';

export function serializeTransaction(row: WalletTransactionRow) {
  return {
    transaction_reference: row.reference,
    amount: decimalToNumber(row.amount),
    currency: row.currency,
    status: row.status,
    type: 'top_up' as const,
    provider: row.provider,
    customer_email: row.customerEmail,
    checkout_url: row.checkoutUrl,
    failure_reason: row.failureReason,
    created_at: isoTimestamp(row.createdAt) as string,
    updated_at: isoTimestamp(row.updatedAt) as string,
    completed_at: isoTimestamp(row.completedAt),
  };
}

export function serializeEntry(row: typeof walletEntries.$inferSelect) {
  return {
    id: row.id,
    amount: decimalToNumber(row.amount),
    kind: row.kind,
    transaction_reference: row.transactionReference,
    created_at: isoTimestamp(row.createdAt) as string,
  };
}
