// Tables of the invoices feature (owned by src/modules/invoices): employees' benefit and expense
// claims with manager and finance approval, and the payments recorded against them.
import { sql } from 'drizzle-orm';
import { date, index, integer, numeric, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const money = (name: string) => numeric(name, { precision: 18, scale: 2 });

export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    userId: integer('user_id').notNull(),
    transactionId: text('transaction_id').notNull(),
    description: text('description').notNull(),
    serviceDate: date('service_date', { mode: 'string' }).notNull(),
    providerName: text('provider_name').notNull(),
    totalAmount: money('total_amount').notNull(),
    amountRequested: money('amount_requested').notNull(),
    amountPaid: money('amount_paid').notNull().default('0'),
    balance: money('balance').notNull(),
    status: text('status').notNull().default('unpaid'),
    approvalStatus: text('approval_status').notNull().default('pending'),
    categoryName: text('category_name').notNull(),
    subcategoryName: text('subcategory_name'),
    paymentMethod: text('payment_method').notNull().default('self'),
    userEmail: text('user_email').notNull(),
    relationshipManagerEmail: text('relationship_manager_email'),
    financeApproverEmail: text('finance_approver_email'),
    approvedByManagerEmail: text('approved_by_manager_email'),
    comment: text('comment'),
    managerComment: text('manager_comment'),
    financeComment: text('finance_comment'),
    managerDecidedAt: ts('manager_decided_at'),
    financeDecidedAt: ts('finance_decided_at'),
    deletedAt: ts('deleted_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoices_transaction_id_key').on(t.transactionId),
    index('invoices_company_created_idx').on(t.companyId, t.createdAt, t.id).where(sql`deleted_at IS NULL`),
    index('invoices_company_status_idx').on(t.companyId, t.status).where(sql`deleted_at IS NULL`),
    index('invoices_company_approval_idx').on(t.companyId, t.approvalStatus).where(sql`deleted_at IS NULL`),
    index('invoices_user_id_idx').on(t.userId),
  ],
);

/** One row per payment recorded through I4 `amount_paid`: the audit trail behind `amount_paid`. */
export const invoicePayments = pgTable(
  'invoice_payments',
  {
    id: serial('id').primaryKey(),
    invoiceId: integer('invoice_id').notNull(),
    companyId: integer('company_id').notNull(),
    amount: money('amount').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('invoice_payments_invoice_idx').on(t.invoiceId), index('invoice_payments_company_idx').on(t.companyId)],
);
