// The decisions of loans and salary advances (docs/payroll.md, "Loans and salary advances"). Pure:
// a create request's fields with the rules of advances, and a paystub's repayments with their cap,
// so each rule is a table test (loans.planner.test.ts).
import type { FieldErrors } from '../../platform/errors.js';
import { isRecord } from '../../platform/guards.js';
import { divRound, type Kobo, RATE_SCALE, toKobo, toRate } from '../../tax-engine/money.js';
import type { Ratio } from '../paystubs/index.js';

export const LOAN_KINDS = ['loan', 'advance'] as const;
export type LoanKind = (typeof LOAN_KINDS)[number];
export const LOAN_STATUSES = ['active', 'paid_off', 'written_off'] as const;

/** ₦1 trillion: far above any loan, far below numeric(18,2) (as a paystub's amounts). */
const MAX_AMOUNT = 100_000_000_000_000n;
/** 100 % a year, in rate units (percent × 10^4). */
const MAX_RATE = 100n * 10_000n;
const PERIOD = /^(\d{4})-(0[1-9]|1[0-2])$/;
/** At least this many periods to recover an advance (Labour Act s.4, docs/payroll.md). */
export const ADVANCE_MIN_PERIODS = 3n;

/**
 * The share of a paystub's net pay before loans that repayments may take when a company has not
 * set its own `max_deduction_ratio`: one third. A policy default of the project, not a statutory
 * figure (docs/payroll.md, "Loans and salary advances").
 */
export const MAX_DEDUCTION_RATIO: Ratio = { num: 1n, den: 3n };

export const LOAN_RULES = {
  advanceWages: (wages: string) =>
    `A salary advance may be at most one month's wages (base salary + allowances: ${wages}) (Labour Act s.4).`,
  advancePeriods:
    'A salary advance is recovered over at least 3 periods: the instalment may be at most one third of the principal (Labour Act s.4).',
  advanceInterest: 'A salary advance bears no interest (Labour Act s.4).',
  advanceOutstanding: 'A new salary advance may not be given while one is outstanding (Labour Act s.4).',
  instalmentAbovePrincipal: 'The instalment may not be greater than the principal.',
} as const;

export const isPeriod = (value: unknown): value is string => typeof value === 'string' && PERIOD.test(value) && value >= '1900-01';

export interface NewLoan {
  kind: LoanKind;
  principal: Kobo;
  instalment: Kobo;
  startPeriod: string;
  /** Percent a year × 10^4 (toRate). */
  rate: bigint;
}

/** What the advance rules read of the borrower: a month's wages and whether an advance is outstanding. */
export interface Borrower {
  wages: Kobo;
  advanceOutstanding: boolean;
}

function money(body: Record<string, unknown>, field: string, errors: FieldErrors): Kobo | null {
  const raw = body[field];
  const label = field.replace(/_/g, ' ');
  if (raw === undefined || raw === null || raw === '') {
    errors[field] = [`The ${label} field is required.`];
    return null;
  }
  const kobo = toKobo(raw);
  if (kobo === null) errors[field] = [`The ${label} field must be a number greater than 0 with at most 2 decimal places.`];
  else if (kobo <= 0n) errors[field] = [`The ${label} field must be greater than 0.`];
  else if (kobo > MAX_AMOUNT) errors[field] = [`The ${label} field must not be greater than 1000000000000.`];
  else return kobo;
  return null;
}

const naira = (kobo: Kobo) => `${kobo / 100n}.${(kobo % 100n).toString().padStart(2, '0')}`;

/** A create request's fields and the advance rules: the loan, or every failure by field. */
export function planNewLoan(body: unknown, borrower: Borrower): { ok: true; value: NewLoan } | { ok: false; errors: FieldErrors } {
  const fields = isRecord(body) ? body : {};
  const errors: FieldErrors = {};
  const kind = fields.kind;
  if (kind === undefined || kind === null || kind === '') errors.kind = ['The kind field is required.'];
  else if (!LOAN_KINDS.includes(kind as LoanKind)) errors.kind = ['The selected kind is invalid.'];
  const principal = money(fields, 'principal', errors);
  const instalment = money(fields, 'instalment', errors);
  const start = fields.start_period;
  if (start === undefined || start === null || start === '') errors.start_period = ['The start period field is required.'];
  else if (!isPeriod(start)) errors.start_period = ['The start period field must be a month in the format YYYY-MM.'];
  let rate = 0n;
  const rawRate = fields.interest_rate_annual;
  if (rawRate !== undefined && rawRate !== null && rawRate !== '') {
    const parsed = toRate(rawRate);
    if (parsed === null || parsed > MAX_RATE)
      errors.interest_rate_annual = ['The interest rate annual field must be a percentage from 0 to 100 with at most 4 decimal places.'];
    else rate = parsed;
  }
  if (principal !== null && instalment !== null && instalment > principal && !errors.instalment)
    errors.instalment = [LOAN_RULES.instalmentAbovePrincipal];
  if (kind === 'advance') {
    if (rate > 0n) errors.interest_rate_annual = [LOAN_RULES.advanceInterest];
    if (principal !== null && principal > borrower.wages) errors.principal = [LOAN_RULES.advanceWages(naira(borrower.wages))];
    if (principal !== null && instalment !== null && !errors.instalment && instalment * ADVANCE_MIN_PERIODS > principal)
      errors.instalment = [LOAN_RULES.advancePeriods];
    if (borrower.advanceOutstanding) errors.kind = [LOAN_RULES.advanceOutstanding];
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: { kind: kind as LoanKind, principal: principal as Kobo, instalment: instalment as Kobo, startPeriod: start as string, rate },
  };
}

/** An active loan as a run sees it for one user and period. */
export interface RepayableLoan {
  id: number;
  kind: LoanKind;
  /** The balance less the principal of repayments on paystubs not paid yet (they will lower it). */
  outstanding: Kobo;
  instalment: Kobo;
  rate: bigint;
  startPeriod: string;
  skippedPeriods: readonly string[];
  /** A paystub (not cancelled) of this period already repays it: one repayment per loan and month. */
  repaidInPeriod: boolean;
}

export interface PlannedRepayment {
  loanId: number;
  code: 'loan_repayment' | 'advance_recovery';
  amount: Kobo;
  /** The interest part of `amount` (the rest lowers the balance when the paystub is paid). */
  interest: Kobo;
  /** The outstanding balance once this repayment is paid (shown on the payslip). */
  balanceAfter: Kobo;
}

/** The smaller of two amounts (Math.min takes no BigInt). */
function least(a: Kobo, b: Kobo): Kobo {
  if (a < b) return a;
  return b;
}

/** Simple monthly interest on the outstanding balance: rate ÷ 12, half-up to the kobo. */
export const monthlyInterest = (outstanding: Kobo, rate: bigint): Kobo => divRound(outstanding * rate, RATE_SCALE * 12n);

/**
 * One paystub's repayments, oldest loan first: each `min(instalment, outstanding)` plus its interest,
 * all of them together at most `ratio` (the company's max_deduction_ratio) of `netBeforeLoans` (and so never below zero net);
 * what the cap leaves waits for the next period. Interest the cap leaves uncollected is not charged
 * (the balance never grows: docs/payroll.md says why).
 */
export function planRepayments(
  loans: readonly RepayableLoan[],
  period: string,
  netBeforeLoans: Kobo,
  ratio: Ratio = MAX_DEDUCTION_RATIO,
): PlannedRepayment[] {
  // Rounded down to the kobo; with ratio ≤ 1 never more than net pay, so net never goes below zero.
  let room = netBeforeLoans > 0n ? (netBeforeLoans * ratio.num) / ratio.den : 0n;
  const out: PlannedRepayment[] = [];
  for (const loan of [...loans].sort((a, b) => a.id - b.id)) {
    if (room <= 0n) break;
    if (loan.startPeriod > period || loan.skippedPeriods.includes(period) || loan.repaidInPeriod || loan.outstanding <= 0n) continue;
    const interest = monthlyInterest(loan.outstanding, loan.rate);
    const due = least(loan.instalment, loan.outstanding) + interest;
    const amount = least(due, room);
    room -= amount;
    const paidInterest = least(interest, amount);
    out.push({
      loanId: loan.id,
      code: loan.kind === 'advance' ? 'advance_recovery' : 'loan_repayment',
      amount,
      interest: paidInterest,
      balanceAfter: loan.outstanding - (amount - paidInterest),
    });
  }
  return out;
}
