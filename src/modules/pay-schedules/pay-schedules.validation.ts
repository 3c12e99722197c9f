// Input rules of POST and PATCH /api/pay-schedules (docs/payroll-runs.md, "Pay schedules"): every
// message at once, 422 {error: {field: [message]}}. The route's schema has checked the JSON types
// loosely (pay_day is a string or an integer); this reads the values.
import { invalid } from '../../platform/errors.js';
import { FREQUENCIES, type Frequency, LAST_WORKING_DAY, ruleErrors } from './pay-schedules.planner.js';
import type { Include } from './pay-schedules.repo.js';

export interface ScheduleInput {
  name?: string;
  frequency?: string;
  pay_day?: string | number;
  first_period_start?: string;
  create_days_before?: number;
  include?: Include | null;
  active?: boolean;
}

export interface ScheduleFields {
  name: string;
  frequency: Frequency;
  payDay: string;
  firstPeriodStart: string;
  createDaysBefore: number;
  include: Include | null;
  active: boolean;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const validDate = (value: string) => DATE.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;

/** `pay_day` as stored: a day of month as its digits, a weekday lower-case. */
function payDayText(value: string | number): string {
  return typeof value === 'number' ? String(value) : value.trim().toLowerCase();
}

function includeOf(raw: Include | null, errors: Record<string, string[]>): Include | null {
  if (raw === null) return null;
  const out: Include = {};
  const strings = (key: 'user_types' | 'departments') => {
    const list = raw[key];
    if (list === undefined) return;
    const cleaned = [...new Set(list.map((value) => value.trim()).filter((value) => value !== ''))];
    if (cleaned.length === 0) errors[`include.${key}`] = [`The include ${key.replace('_', ' ')} must name at least one.`];
    else out[key] = cleaned;
  };
  strings('user_types');
  strings('departments');
  if (raw.user_ids !== undefined) {
    if (raw.user_ids.length === 0) errors['include.user_ids'] = ['The include user ids must name at least one user.'];
    else out.user_ids = [...new Set(raw.user_ids)];
  }
  // {} would mean "nobody matches no filter": everyone is `null`.
  return Object.keys(out).length === 0 && !Object.keys(errors).some((key) => key.startsWith('include.')) ? null : out;
}

/**
 * The schedule's fields: `current` (PATCH) supplies what the input leaves out; without it (POST)
 * name, frequency, pay_day and first_period_start are required.
 */
export function readSchedule(input: ScheduleInput, current?: ScheduleFields): ScheduleFields {
  const errors: Record<string, string[]> = {};
  const required = (field: string) => {
    errors[field] = [`The ${field.replace(/_/g, ' ')} field is required.`];
  };
  const name = input.name?.trim() ?? current?.name;
  if (name === undefined || name === '') required('name');
  const frequency = input.frequency ?? current?.frequency;
  if (frequency === undefined) required('frequency');
  else if (!FREQUENCIES.includes(frequency as Frequency)) errors.frequency = ['The frequency must be monthly, weekly or bi-weekly.'];
  const payDay = input.pay_day !== undefined ? payDayText(input.pay_day) : current?.payDay;
  if (payDay === undefined || payDay === '') required('pay_day');
  const firstPeriodStart = input.first_period_start ?? current?.firstPeriodStart;
  if (firstPeriodStart === undefined) required('first_period_start');
  else if (!validDate(firstPeriodStart))
    errors.first_period_start = ['The first period start field must be a valid date in the format YYYY-MM-DD.'];
  const createDaysBefore = input.create_days_before ?? current?.createDaysBefore ?? 5;
  if (!Number.isInteger(createDaysBefore) || createDaysBefore < 0 || createDaysBefore > 60)
    errors.create_days_before = ['The create days before field must be a whole number of days from 0 to 60.'];
  const include = input.include !== undefined ? includeOf(input.include, errors) : (current?.include ?? null);
  if (Object.keys(errors).length === 0) {
    Object.assign(
      errors,
      ruleErrors({
        frequency: frequency as Frequency,
        payDay: payDay as string,
        firstPeriodStart: firstPeriodStart as string,
        createDaysBefore,
      }),
    );
  }
  if (Object.keys(errors).length > 0) throw invalid(errors);
  return {
    name: name as string,
    frequency: frequency as Frequency,
    payDay: payDay === LAST_WORKING_DAY ? LAST_WORKING_DAY : (payDay as string),
    firstPeriodStart: firstPeriodStart as string,
    createDaysBefore,
    include,
    active: input.active ?? current?.active ?? true,
  };
}
