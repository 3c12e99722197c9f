// Who a run computed from salaries pays, and with what: eligibility, pro rata for mid-period
// starters and leavers, overrides, and the reasons for everyone skipped. Pure (no database, no clock): every
// decision is a table test (payroll-runs.planner.test.ts). The items it returns go through the same
// planner and writer as P2 (paystubs/paystubs.run.service.ts), which adds its own per-item failures
// (duplicates, "Deductions exceed pay.").
import { divRound, type Kobo, toKobo } from '../../tax-engine/money.js';
import { isValidNuban } from '../banks/index.js';
import type { PlanItem, PlanPayItem } from '../paystubs/index.js';

export const SKIP = {
  notFound: 'User not found.',
  inactive: 'The employee is not active.',
  suspended: 'The employee is suspended.',
  notStarted: 'The employee starts after the pay period.',
  left: 'The employee left before the pay period.',
  noSalary: 'The employee has no base salary.',
} as const;

/** A non-deleted user of the run's company, with their pay data (numeric text). */
export interface Candidate {
  id: number;
  is_active: boolean;
  is_suspended: boolean;
  start_date: string | null;
  /** The last day of employment (docs/users.md, "Leavers"); null: no exit recorded. */
  exit_date: string | null;
  base_salary: string | null;
  allowances: string | null;
}

export interface Override {
  taxableIncome?: Kobo;
  otherAllowances?: Kobo;
  reimbursements?: Kobo;
  /** Pay items beside the salary (a bonus in the month, overtime, …), types resolved. */
  items?: readonly PlanPayItem[];
}

/** POST /api/payroll-runs as the service takes it (the route's schema has checked the shape). */
export interface CreateRunInput {
  /** Absent: regular. An off-cycle run (off-cycle/off-cycle.service.ts) pays `users`' items only. */
  kind?: 'regular' | 'off_cycle';
  reason?: string;
  /** Required for a regular run; an off-cycle run's default to its payment date. */
  pay_period_start?: string;
  pay_period_end?: string;
  /** Required (checked with the other fields, so that one 422 names every missing one). */
  payment_date?: string;
  user_ids?: number[];
  /** Amounts: JSON numbers or decimal strings (platform/schemas.ts MoneyInput), read by toKobo. */
  items?: { user_id: number; taxable_income?: unknown; other_allowances?: unknown; reimbursements?: unknown; items?: unknown }[];
  users?: { user_id: number; items?: unknown }[];
  created_by_email?: string;
}

export interface RunRequest {
  start: string;
  end: string;
  /** Who was asked for; absent = every active, not suspended employee. */
  userIds?: readonly number[];
  overrides: ReadonlyMap<number, Override>;
}

export interface Skipped {
  user_id: number;
  reason: string;
}

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

/**
 * Calendar days employed in the period ÷ days in the period (1/1 when employed throughout). A
 * joiner counts from their start date, a leaver up to and including their exit date (the joiner
 * rule mirrored, docs/payroll-runs.md); one who does both inside the period gets both cuts.
 */
export function employedFraction(
  start: string,
  end: string,
  startDate: string | null,
  exitDate: string | null = null,
): { days: bigint; of: bigint } {
  const total = dayNumber(end) - dayNumber(start) + 1;
  const from = startDate && startDate > start ? startDate : start;
  const to = exitDate && exitDate < end ? exitDate : end;
  return { days: BigInt(dayNumber(to) - dayNumber(from) + 1), of: BigInt(total) };
}

/** Whether the employee's exit came before the period: they are no longer paid by regular runs. */
const leftBefore = (user: Candidate, start: string) => user.exit_date !== null && user.exit_date < start;

/** amount × days ÷ of, rounded half-up to the kobo once. */
export const proRata = (amount: Kobo, fraction: { days: bigint; of: bigint }): Kobo =>
  fraction.days === fraction.of ? amount : divRound(amount * fraction.days, fraction.of);

/**
 * Items for the paystub planner (one per paid employee, in user id order) and the skipped.
 * Default set: every active, not suspended employee who had not left before the period, plus
 * anyone named in an override; the inactive, suspended and departed are left out silently unless
 * asked for by name. Whether someone has left is decided by the period, not by today: the run of
 * the month an employee left in still pays them, pro rata, whenever it is created. Overrides are figures for
 * the period as given (not pro-rated); the salary and allowances from the records are.
 */
export function planRunItems(request: RunRequest, candidates: readonly Candidate[]): { items: PlanItem[]; skipped: Skipped[] } {
  const byId = new Map(candidates.map((user) => [user.id, user]));
  const named = new Set<number>([...(request.userIds ?? []), ...request.overrides.keys()]);
  const ids = request.userIds
    ? [...named]
    : [
        ...new Set([
          ...candidates.filter((user) => user.is_active && !user.is_suspended && !leftBefore(user, request.start)).map((user) => user.id),
          ...named,
        ]),
      ];
  ids.sort((a, b) => a - b);

  const items: PlanItem[] = [];
  const skipped: Skipped[] = [];
  for (const id of ids) {
    const user = byId.get(id);
    const skip = (reason: string) => skipped.push({ user_id: id, reason });
    if (!user) {
      skip(SKIP.notFound);
      continue;
    }
    if (!user.is_active) {
      skip(SKIP.inactive);
      continue;
    }
    if (user.is_suspended) {
      skip(SKIP.suspended);
      continue;
    }
    if (user.start_date && user.start_date > request.end) {
      skip(SKIP.notStarted);
      continue;
    }
    if (leftBefore(user, request.start)) {
      skip(SKIP.left);
      continue;
    }
    const override = request.overrides.get(id) ?? {};
    const salary = toKobo(user.base_salary ?? '0') ?? 0n;
    if (override.taxableIncome === undefined && salary <= 0n) {
      skip(SKIP.noSalary);
      continue;
    }
    const fraction = employedFraction(request.start, request.end, user.start_date, user.exit_date);
    // An exit before the start (refused by terminate and U4, so only data written around them): no day employed.
    if (fraction.days <= 0n) {
      skip(SKIP.left);
      continue;
    }
    items.push({
      index: items.length,
      rawId: id,
      userId: id,
      start: request.start,
      end: request.end,
      taxableIncome: override.taxableIncome ?? proRata(salary, fraction),
      otherAllowances: override.otherAllowances ?? proRata(toKobo(user.allowances ?? '0') ?? 0n, fraction),
      reimbursements: override.reimbursements ?? 0n,
      items: override.items,
    });
  }
  return { items, skipped };
}

/**
 * The paystubs whose employee can be paid: a known bank (bank_code) and a valid NUBAN there. The
 * others fail with "No valid bank account." until the record is fixed (docs/banks.md).
 */
export function payablePaystubs(accounts: readonly { id: number; bank_code: string | null; account_number: string | null }[]): number[] {
  return accounts
    .filter((a) => a.bank_code !== null && a.account_number !== null && isValidNuban(a.bank_code, a.account_number.trim()))
    .map((a) => a.id);
}
