// Opening year-to-date figures (0210_opening_year_to_date.sql; docs/payroll.md, "Opening year-to-date").
import { index, integer, numeric, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const money = (name: string) => numeric(name, { precision: 18, scale: 2 }).notNull().default('0');

export const userOpeningYtd = pgTable(
  'user_opening_ytd',
  {
    companyId: integer('company_id').notNull(),
    userId: integer('user_id').notNull(),
    year: integer('year').notNull(),
    grossPay: money('gross_pay'),
    taxablePay: money('taxable_pay'),
    taxWithheld: money('tax_withheld'),
    employeePension: money('employee_pension'),
    nhf: money('nhf'),
    nhis: money('nhis'),
    months: integer('months').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.year] }), index('user_opening_ytd_company_year_idx').on(t.companyId, t.year)],
);
