// The decisions of POST /api/users/{id}/terminate and /reinstate (docs/users.md, "Leavers"), pure:
// the request body and the user's locked row in, the exit to write or every refusal out. No
// database, no clock (the Lagos day comes in), so each rule is a table test (leavers.planner.test.ts).
import { addFieldError, type FieldErrors } from '../../platform/errors.js';
import { FieldReader, rejectUnknownFields } from '../../platform/field-reader.js';
import { EXIT_REASONS, type ExitReason, isExited } from '../users/index.js';

/** What the rules read of the user (locked in the caller's transaction). */
export interface LeaverUser {
  startDate: string | null;
  exitDate: string | null;
  exitReason: string | null;
  isActive: boolean;
  roles: readonly string[];
}

export interface PlannedExit {
  exitDate: string;
  reason: ExitReason;
  /** The exit date has already passed: the user is exited from now on (their console sessions end at once). */
  exitedNow: boolean;
}

export type Plan<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

export const LEAVER_MESSAGES = {
  // The schema's own enum message (the API refuses it there first; the console comes through here).
  reason: 'The selected reason is invalid.',
  // Off-cycle runs do not exist yet: the final pay comes with them (docs/users.md, "Leavers").
  finalPay: 'The final pay field must be an object: {items: [{type, amount, …}], payment_date?}.',
  beforeStart: (start: string) => `The exit date must not be before the user's start date (${start}).`,
  terminated: (date: string) => `The user has already been terminated (exit date ${date}); reinstate them first to record another exit.`,
  lastSuperAdmin: "The company's last active super-admin cannot be terminated; give another user the super-admin role first.",
  notTerminated: 'The user has not been terminated.',
  paid: (start: string, end: string) =>
    `The paystub covering the exit date (${start} to ${end}) has been paid; this exit can no longer be undone.`,
  paying: (start: string, end: string) =>
    `The paystub covering the exit date (${start} to ${end}) is being paid; this exit can no longer be undone.`,
} as const;

/** Fields of the terminate body besides `company_id`, which the platform reads (tenancy). */
const TERMINATE_FIELDS = ['exit_date', 'reason'] as const;

const isReason = (value: string): value is ExitReason => (EXIT_REASONS as readonly string[]).includes(value);

/**
 * The exit a terminate request records, or every refusal at once. `superAdminStays`: whether the
 * company keeps another active super-admin with no exit of their own (asked only when it matters).
 */
export function planTerminate(body: Record<string, unknown>, user: LeaverUser, today: string, superAdminStays: boolean): Plan<PlannedExit> {
  const reader = new FieldReader(body);
  const exitDate = reader.date('exit_date', true);
  const reasonText = reader.text('reason', true);
  const errors: FieldErrors = reader.errors;
  // Its items are checked by the step that makes the draft (payroll runs), in the same transaction.
  const finalPay = body.final_pay;
  if (finalPay !== undefined && (finalPay === null || typeof finalPay !== 'object' || Array.isArray(finalPay) || !('items' in finalPay)))
    addFieldError(errors, 'final_pay', LEAVER_MESSAGES.finalPay);
  rejectUnknownFields(body, [...TERMINATE_FIELDS, 'final_pay'], errors, ['company_id']);
  if (reasonText !== undefined && !isReason(reasonText)) addFieldError(errors, 'reason', LEAVER_MESSAGES.reason);
  if (user.exitDate !== null) addFieldError(errors, 'exit_date', LEAVER_MESSAGES.terminated(user.exitDate));
  else if (exitDate !== undefined && user.startDate !== null && exitDate < user.startDate)
    addFieldError(errors, 'exit_date', LEAVER_MESSAGES.beforeStart(user.startDate));
  if (user.roles.includes('super-admin') && user.isActive && user.exitDate === null && !superAdminStays)
    addFieldError(errors, 'user', LEAVER_MESSAGES.lastSuperAdmin);
  if (Object.keys(errors).length > 0 || exitDate === undefined || reasonText === undefined || !isReason(reasonText)) {
    return { ok: false, errors };
  }
  return { ok: true, value: { exitDate, reason: reasonText, exitedNow: isExited(exitDate, today) } };
}

/** The paystub whose period covers the exit date, if one is paid or being paid (the latest such). */
export interface CoveringPaystub {
  status: string;
  payPeriodStart: string;
  payPeriodEnd: string;
}

/**
 * Whether an exit may be undone: only one that was recorded, and whose last period has not been
 * paid (a `paid` or `processing` paystub covering the exit date: the pro rata pay is out).
 */
export function planReinstate(user: LeaverUser, covering: CoveringPaystub | undefined): Plan<{ exitDate: string }> {
  if (user.exitDate === null) return { ok: false, errors: { exit_date: [LEAVER_MESSAGES.notTerminated] } };
  if (covering?.status === 'paid')
    return { ok: false, errors: { exit_date: [LEAVER_MESSAGES.paid(covering.payPeriodStart, covering.payPeriodEnd)] } };
  if (covering?.status === 'processing')
    return { ok: false, errors: { exit_date: [LEAVER_MESSAGES.paying(covering.payPeriodStart, covering.payPeriodEnd)] } };
  return { ok: true, value: { exitDate: user.exitDate } };
}
