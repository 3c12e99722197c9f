// Wire shape of a pay schedule (docs/payroll-runs.md, "Pay schedules"): the schedule, its next
// period and creation time, the next runs it will create and (GET one) the runs it made.
import { isoTimestamp } from '../../platform/format.js';
import { type Period, type ScheduleRule, upcomingPeriods } from './pay-schedules.planner.js';
import type { PeriodRow, ScheduleRow } from './pay-schedules.repo.js';

export const ruleOf = (row: ScheduleRow): ScheduleRule => ({
  frequency: row.frequency,
  payDay: row.pay_day,
  firstPeriodStart: row.first_period_start,
  createDaysBefore: row.create_days_before,
});

/** How many coming runs a schedule lists. */
export const UPCOMING = 3;

const periodView = (period: Period) => ({
  pay_period_start: period.start,
  pay_period_end: period.end,
  payment_date: period.paymentDate,
  creation_date: period.createOn,
});

export function serializeSchedule(row: ScheduleRow, periods?: PeriodRow[]) {
  const upcoming = row.active && row.next_period_start ? upcomingPeriods(ruleOf(row), row.next_period_start, UPCOMING) : [];
  return {
    id: row.id,
    company_id: row.company_id,
    name: row.name,
    frequency: row.frequency,
    pay_day: /^\d+$/.test(row.pay_day) ? Number(row.pay_day) : row.pay_day,
    first_period_start: row.first_period_start,
    create_days_before: row.create_days_before,
    include: row.include,
    active: row.active,
    next_period: upcoming[0] ? periodView(upcoming[0]) : null,
    next_creation_at: isoTimestamp(row.next_creation_at),
    upcoming: upcoming.map(periodView),
    ...(periods
      ? {
          runs: periods.map((p) => ({
            pay_period_start: p.period_start,
            pay_period_end: p.period_end,
            payment_date: p.payment_date,
            run_id: p.run_id,
            error: p.error,
            created_at: isoTimestamp(p.created_at),
          })),
        }
      : {}),
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
  };
}

export type ScheduleView = ReturnType<typeof serializeSchedule>;
