// Tables of the wallet feature (owned by src/modules/wallet); created by migrations/0040_wallet.sql.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, numeric, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export type WalletStatus = 'pending' | 'success' | 'failed';

/** One top-up: created pending by W1, settled once by verification (job or webhook). */
export const walletTransactions = pgTable(
  'wallet_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reference: text('reference').notNull(),
    companyId: integer('company_id').notNull(),
    amount: numeric('amount', { precision: 18, scale: 2 }).notNull(),
    currency: text('currency').notNull().default('NGN'),
    status: text('status').$type<WalletStatus>().notNull().default('pending'),
    provider: text('provider').notNull(),
    customerEmail: text('customer_email').notNull(),
    redirectUrl: text('redirect_url').notNull(),
    checkoutUrl: text('checkout_url'),
    /** Sandbox only: SHA-256 (hex) of the secret in the checkout link (migration 0069). */
    checkoutSecretHash: text('checkout_secret_hash'),
    providerPayload: jsonb('provider_payload'),
    failureReason: text('failure_reason'),
    verifyAttempts: integer('verify_attempts').notNull().default(0),
    lastVerifiedAt: ts('last_verified_at'),
    completedAt: ts('completed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('wallet_transactions_reference_key').on(t.reference),
    index('wallet_transactions_company_idx').on(t.companyId, t.id),
    index('wallet_transactions_pending_idx').on(t.createdAt).where(sql`status = 'pending'`),
  ],
);

/** The append-only ledger (a trigger refuses UPDATE and DELETE); balance = SUM(amount). */
export const walletEntries = pgTable(
  'wallet_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id').notNull(),
    amount: numeric('amount', { precision: 18, scale: 2 }).notNull(),
    kind: text('kind').$type<'top_up' | 'payroll_debit' | 'payroll_refund'>().notNull(),
    transactionReference: text('transaction_reference'),
    // 0081: the balance after this entry (set by the database), the payroll reference, a description.
    balanceAfter: numeric('balance_after', { precision: 18, scale: 2 }),
    reference: text('reference'),
    description: text('description'),
    createdAt: ts('created_at').notNull().defaultNow(),
    // 0181: the entry's place in its company's ledger (1, 2, ...), taken by the balance trigger
    // under the balance row's lock; the ledger is listed in this order, not by id.
    ledgerSeq: bigint('ledger_seq', { mode: 'number' }).notNull(),
  },
  (t) => [
    uniqueIndex('wallet_entries_ledger_seq_key').on(t.companyId, t.ledgerSeq),
    uniqueIndex('wallet_entries_top_up_key').on(t.transactionReference).where(sql`kind = 'top_up'`),
    uniqueIndex('wallet_entries_payroll_debit_key').on(t.reference).where(sql`kind = 'payroll_debit'`),
    uniqueIndex('wallet_entries_payroll_refund_key').on(t.reference).where(sql`kind = 'payroll_refund'`),
  ],
);

/** The sandbox checkout page's recorded outcome per reference. */
export const walletSandboxOutcomes = pgTable('wallet_sandbox_outcomes', {
  reference: text('reference').primaryKey(),
  outcome: text('outcome').$type<'success' | 'failed'>().notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});
