// Loans and salary advances (owned by src/modules/loans); created by migrations/0212_loans.sql, which
// also adds paystub_items.loan_id and loan_interest (mirrored in payroll.ts).
import { sql } from 'drizzle-orm';
import { index, integer, numeric, pgTable, primaryKey, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const money = (name: string) => numeric(name, { precision: 18, scale: 2 });

export const loans = pgTable(
  'loans',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    userId: integer('user_id').notNull(),
    kind: text('kind').$type<'loan' | 'advance'>().notNull(),
    principal: money('principal').notNull(),
    balance: money('balance').notNull(),
    instalment: money('instalment').notNull(),
    startPeriod: text('start_period').notNull(),
    interestRateAnnual: numeric('interest_rate_annual', { precision: 7, scale: 4 }).notNull().default('0'),
    status: text('status').$type<'active' | 'paid_off' | 'written_off'>().notNull().default('active'),
    skippedPeriods: text('skipped_periods').array().notNull().default(sql`'{}'::text[]`),
    closedBalance: money('closed_balance'),
    closedAt: ts('closed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('loans_company_idx').on(t.companyId, t.id.desc()),
    index('loans_company_user_idx').on(t.companyId, t.userId, t.id.desc()),
    index('loans_company_status_idx').on(t.companyId, t.status, t.id.desc()),
    index('loans_company_kind_idx').on(t.companyId, t.kind, t.id.desc()),
    index('loans_user_idx').on(t.userId),
  ],
);

/**
 * Loans per company, moved by triggers on loans (migrations/0275_loan_counts.sql): the unfiltered
 * list's total is the sum of the company's rows, one per slot (a slot alone means nothing).
 */
export const loanCounts = pgTable(
  'loan_counts',
  {
    companyId: integer('company_id').notNull(),
    slot: smallint('slot').notNull(),
    loans: integer('loans').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.slot] })],
);
