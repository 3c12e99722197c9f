// Remittance filings and deadline notices (owned by src/modules/remittances); created by
// migrations/0231_remittance_filings.sql, which also adds payroll_runs_paid_at_idx (payroll-runs.ts).
import { date, integer, numeric, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const remittanceFilings = pgTable(
  'remittance_filings',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    kind: text('kind').$type<'paye' | 'pension' | 'nhf' | 'nsitf'>().notNull(),
    month: text('month').notNull(),
    authority: text('authority').notNull().default(''),
    amount: numeric('amount', { precision: 18, scale: 2 }).notNull(),
    paidOn: date('paid_on', { mode: 'string' }).notNull(),
    receiptReference: text('receipt_reference').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('remittance_filings_schedule_key').on(t.companyId, t.kind, t.month, t.authority)],
);

export const remittanceNotices = pgTable(
  'remittance_notices',
  {
    companyId: integer('company_id').notNull(),
    kind: text('kind').notNull(),
    month: text('month').notNull(),
    authority: text('authority').notNull(),
    notice: text('notice').$type<'due_soon' | 'overdue'>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.kind, t.month, t.authority, t.notice] })],
);

export const remittanceDeadlineChecks = pgTable('remittance_deadline_checks', {
  companyId: integer('company_id').primaryKey(),
  checkedOn: date('checked_on', { mode: 'string' }).notNull(),
});
