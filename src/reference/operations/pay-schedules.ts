// Pay schedules (docs/payroll-runs.md, "Pay schedules").
import type { OperationDoc } from './types.js';

const PERIOD = { pay_period_start: '2026-12-01', pay_period_end: '2026-12-31', payment_date: '2026-12-31', creation_date: '2026-12-26' };
const SCHEDULE = {
  id: 3,
  company_id: 1,
  name: 'Monthly staff',
  frequency: 'monthly',
  pay_day: 'last_working_day',
  first_period_start: '2026-01-01',
  create_days_before: 5,
  include: null,
  active: true,
  next_period: PERIOD,
  next_creation_at: '2026-12-26T05:00:00.000Z',
  upcoming: [
    PERIOD,
    { pay_period_start: '2027-01-01', pay_period_end: '2027-01-31', payment_date: '2027-01-29', creation_date: '2027-01-24' },
    { pay_period_start: '2027-02-01', pay_period_end: '2027-02-28', payment_date: '2027-02-26', creation_date: '2027-02-21' },
  ],
  created_at: '2026-11-20T09:00:00.000Z',
  updated_at: '2026-11-25T05:00:01.000Z',
};

export const PAY_SCHEDULES_OPERATIONS: Record<string, OperationDoc> = {
  'pay-schedules.store': {
    description:
      "Creates a pay schedule. A durable job creates each period's **draft** run `create_days_before` days before its payment date (06:00 Lagos time), exactly once per schedule and period, through the same rules as `POST /api/payroll-runs` (approval, one salary per period, the company's frequency); it e-mails the administrators and announces `payroll_run.created` with `schedule_id`. A payment date on a weekend or public holiday moves to the working day before. A period whose creation time has passed and whose payment date is ahead is created at once; periods already paid for are never created. `frequency` must be the company's payment frequency; monthly periods start on day 1-28.",
    body: {
      name: 'Monthly staff',
      frequency: 'monthly',
      pay_day: 'last_working_day',
      first_period_start: '2026-01-01',
      create_days_before: 5,
    },
    responses: { '201': { message: 'Pay schedule created successfully.', pay_schedule: SCHEDULE } },
  },
  'pay-schedules.index': { description: "The company's pay schedules with their next period, creation time and next 3 runs." },
  'pay-schedules.show': {
    description:
      'One pay schedule: its next period and creation time, the next 3 runs, and the latest 12 periods it made (`run_id`, or `error` when the run was refused).',
  },
  'pay-schedules.update': {
    description:
      'Changes a schedule (any field of create), pauses it (`active: false`) or re-activates it; its next period is worked out again from today, never one it already made.',
    body: { active: false },
  },
  'pay-schedules.destroy': { description: 'Deletes a schedule: it creates nothing more; the runs it made stay.' },
};
