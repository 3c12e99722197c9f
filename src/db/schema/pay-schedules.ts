// Pay schedules (owned by src/modules/pay-schedules); created by migrations/0230_pay_schedules.sql,
// which also adds payroll_runs.schedule_id (mirrored in payroll-runs.ts).
import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const paySchedules = pgTable(
  'pay_schedules',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    name: text('name').notNull(),
    frequency: text('frequency').$type<'monthly' | 'weekly' | 'bi-weekly'>().notNull(),
    payDay: text('pay_day').notNull(),
    firstPeriodStart: date('first_period_start', { mode: 'string' }).notNull(),
    createDaysBefore: integer('create_days_before').notNull().default(5),
    include: jsonb('include'),
    active: boolean('active').notNull().default(true),
    deletedAt: ts('deleted_at'),
    nextPeriodStart: date('next_period_start', { mode: 'string' }),
    nextCreationAt: ts('next_creation_at'),
    claimedUntil: ts('claimed_until'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('pay_schedules_company_idx').on(t.companyId, t.id), index('pay_schedules_due_idx').on(t.nextCreationAt).where(sql`active`)],
);

/** One row per schedule and period: the exactly-once key of the period's run. */
export const paySchedulePeriods = pgTable(
  'pay_schedule_periods',
  {
    scheduleId: integer('schedule_id').notNull(),
    companyId: integer('company_id').notNull(),
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    periodEnd: date('period_end', { mode: 'string' }).notNull(),
    paymentDate: date('payment_date', { mode: 'string' }).notNull(),
    runId: text('run_id'),
    error: text('error'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.scheduleId, t.periodStart] }),
    index('pay_schedule_periods_company_idx').on(t.companyId, t.scheduleId),
    index('pay_schedule_periods_run_idx').on(t.runId).where(sql`run_id IS NOT NULL`),
  ],
);
