// Wire shapes of the wallet: amounts as JSON numbers in NGN (exact to the kobo), UTC timestamps.
import type { walletEntries } from '../../db/schema/index.js';
import { isoTimestamp } from '../../platform/format.js';
import { columnToNumber } from '../../tax-engine/money.js';
import type { WalletTransactionRow } from './wallet.repo.js';

export function serializeTransaction(row: WalletTransactionRow) {
  return {
    transaction_reference: row.reference,
    amount: columnToNumber(row.amount),
    currency: row.currency,
    status: row.status,
    type: 'top_up' as const,
    provider: row.provider,
    /** Sandbox money (docs/wallet.md, "The wallet rules"): no real payment stands behind it. */
    sandbox: row.provider === 'sandbox',
    customer_email: row.customerEmail,
    checkout_url: row.checkoutUrl,
    failure_reason: row.failureReason,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
    completed_at: isoTimestamp(row.completedAt),
  };
}

export function serializeEntry(row: typeof walletEntries.$inferSelect & { sandbox: boolean }) {
  return {
    id: row.id,
    amount: columnToNumber(row.amount),
    kind: row.kind,
    transaction_reference: row.transactionReference,
    sandbox: row.sandbox,
    created_at: isoTimestamp(row.createdAt),
  };
}
