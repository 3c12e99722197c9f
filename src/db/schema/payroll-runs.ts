// Tables of payroll runs (owned by src/modules/payroll-runs) and the wallet's balance row;
// created by migrations/0080_payroll_runs.sql, 0081_wallet_balances.sql, 0094_wallet_balances_sandbox.sql, 0100_paystack_transfers.sql,
// 0181_wallet_ledger_seq.sql and 0190_run_approval.sql.
import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const money = (name: string) => numeric(name, { precision: 18, scale: 2 });

export type PayrollRunStatus = 'draft' | 'approved' | 'processing' | 'paid' | 'partially_paid' | 'failed' | 'cancelled';

/** A run: one company, one period, its paystubs share `transaction_id` = `id`. */
export const payrollRuns = pgTable(
  'payroll_runs',
  {
    id: text('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    status: text('status').$type<PayrollRunStatus>().notNull().default('draft'),
    source: text('source').$type<'paystubs' | 'salaries'>().notNull(),
    payPeriodStart: date('pay_period_start', { mode: 'string' }).notNull(),
    payPeriodEnd: date('pay_period_end', { mode: 'string' }).notNull(),
    paymentDate: date('payment_date', { mode: 'string' }),
    createdByEmail: text('created_by_email'),
    /** 0190: creator and approver as users, and how the run was approved (docs/payroll-runs.md, "Approval"). */
    createdByUserId: integer('created_by_user_id'),
    approvedByEmail: text('approved_by_email'),
    approvedByUserId: integer('approved_by_user_id'),
    approvedVia: text('approved_via').$type<'console' | 'email_link' | 'token'>(),
    approvedAt: ts('approved_at'),
    paidAt: ts('paid_at'),
    cancelledAt: ts('cancelled_at'),
    attempt: integer('attempt').notNull().default(0),
    totals: jsonb('totals').notNull(),
    skipped: jsonb('skipped').notNull().default([]),
    /** 0200: `off_cycle` runs pay items only, with a reason (docs/payroll-runs.md, "Off-cycle runs"). */
    kind: text('kind').$type<'regular' | 'off_cycle'>().notNull().default('regular'),
    reason: text('reason').$type<'bonus' | 'correction' | 'final_pay' | 'other'>(),
    /** 0230: the pay schedule that created this run (docs/payroll-runs.md, "Pay schedules"). */
    scheduleId: integer('schedule_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('payroll_runs_company_kind_idx').on(t.companyId, t.kind, t.createdAt.desc()),
    index('payroll_runs_company_idx').on(t.companyId, t.createdAt.desc(), t.id.desc()),
    index('payroll_runs_company_status_idx').on(t.companyId, t.status, t.createdAt.desc()),
    // 0120: a month's remittance schedules (runs by payment date).
    index('payroll_runs_company_payment_date_idx').on(t.companyId, t.paymentDate),
    index('payroll_runs_schedule_idx').on(t.scheduleId).where(sql`schedule_id IS NOT NULL`),
    // 0231: the daily remittance deadline check finds the companies that paid lately.
    index('payroll_runs_paid_at_idx').on(t.paidAt).where(sql`paid_at IS NOT NULL`),
    // 0264: Console → Payroll sorted by pay period.
    index('payroll_runs_company_period_idx').on(t.companyId, t.payPeriodStart, t.id),
  ],
);

/** The open approval request of a draft run (0190): one per run, a later request replaces it. */
export const payrollRunApprovalRequests = pgTable(
  'payroll_run_approval_requests',
  {
    companyId: integer('company_id').notNull(),
    runId: text('run_id').notNull(),
    approverUserId: integer('approver_user_id').notNull(),
    approverEmail: text('approver_email').notNull(),
    /** SHA-256 (hex) of the e-mailed link's secret. */
    tokenHash: text('token_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.runId] })],
);

/** One transfer attempt of one paystub. */
export const payrollTransfers = pgTable(
  'payroll_transfers',
  {
    reference: text('reference').primaryKey(),
    companyId: integer('company_id').notNull(),
    runId: text('run_id').notNull(),
    paystubId: integer('paystub_id').notNull(),
    attempt: integer('attempt').notNull(),
    batch: integer('batch').notNull(),
    amount: money('amount').notNull(),
    bankName: text('bank_name').notNull(),
    accountNumber: text('account_number').notNull(),
    /** The bank's code and the holder's name at funding (0100_paystack_transfers.sql; null before it). */
    bankCode: text('bank_code'),
    accountName: text('account_name'),
    provider: text('provider').notNull(),
    status: text('status').$type<'queued' | 'sending' | 'sent' | 'paid' | 'failed'>().notNull().default('queued'),
    failureReason: text('failure_reason'),
    sentAt: ts('sent_at'),
    settledAt: ts('settled_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    // 0242 dropped (company_id, run_id): every statement names the run, and this index answers a batch.
    index('payroll_transfers_batch_idx').on(t.runId, t.attempt, t.batch),
    index('payroll_transfers_paystub_idx').on(t.paystubId),
  ],
);

/** The sandbox transfer provider's own books. */
export const payrollSandboxTransfers = pgTable('payroll_sandbox_transfers', {
  reference: text('reference').primaryKey(),
  accountNumber: text('account_number').notNull(),
  amount: money('amount').notNull(),
  requests: integer('requests').notNull().default(1),
  settlesAt: ts('settles_at').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** Paystack transfer recipients, created once per bank account and reused (0100_paystack_transfers.sql). */
export const paystackTransferRecipients = pgTable(
  'paystack_transfer_recipients',
  {
    bankCode: text('bank_code').notNull(),
    accountNumber: text('account_number').notNull(),
    recipientCode: text('recipient_code').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.bankCode, t.accountNumber] })],
);

/** A company's balance, moved by a trigger with every ledger entry; never negative (CHECK). */
export const walletBalances = pgTable('wallet_balances', {
  companyId: integer('company_id').primaryKey(),
  balance: money('balance').notNull().default('0'),
  /** The part of the balance from sandbox top-ups (0094_wallet_balances_sandbox.sql). */
  sandbox: money('sandbox').notNull().default('0'),
  /** The number of the company's last ledger entry (0181_wallet_ledger_seq.sql). */
  ledgerSeq: bigint('ledger_seq', { mode: 'number' }).notNull().default(0),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
