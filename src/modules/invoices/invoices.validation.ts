// Input rules of I3-I6 (docs/companies-invoices.md, "The companies and invoices rules"). Every
// problem is reported at once as {field: [message]}; types are already checked by the route
// schemas.

import { isEmail } from '../../platform/email.js';
import { addFieldError, type FieldErrors, invalid } from '../../platform/errors.js';
import { fieldLabel, rejectUnknownFields } from '../../platform/field-reader.js';
import { isKeyOf, isOneOf } from '../../platform/guards.js';
import { parseMoney } from './invoices.money.validation.js';
import { SORT_COLUMNS, type SortColumn } from './invoices.repo.js';

export const PAYMENT_METHODS = ['self', 'provider'] as const;
export const INVOICE_STATUSES = ['unpaid', 'pending', 'partially_paid', 'paid'] as const;
export const APPROVAL_STATUSES = ['pending', 'manager_approved', 'rejected', 'approved', 'denied'] as const;
type Body = Record<string, unknown>;

const label = fieldLabel;
const MAX_TEXT: Partial<Record<string, number>> = { description: 5000, comment: 5000 };

/** `company_id` is the tenancy's (platform/tenancy.ts). */
const rejectUnknown = (body: Body, allowed: readonly string[], errors: FieldErrors) =>
  rejectUnknownFields(body, allowed, errors, ['company_id']);

function given(body: Body, field: string): boolean {
  return body[field] !== undefined;
}

/** A trimmed non-empty string, or a `required` error. */
function requiredText(body: Body, field: string, errors: FieldErrors): string | undefined {
  const raw = body[field];
  const value = typeof raw === 'string' ? raw.trim() : '';
  if (!value) {
    addFieldError(errors, field, `The ${label(field)} field is required.`);
    return undefined;
  }
  const max = MAX_TEXT[field] ?? 255;
  if (value.length > max) {
    addFieldError(errors, field, `The ${label(field)} field must not be greater than ${max} characters.`);
    return undefined;
  }
  return value;
}

/** Optional text: undefined when absent, null when null or blank. */
function optionalText(body: Body, field: string, errors: FieldErrors): string | null | undefined {
  if (!given(body, field)) return undefined;
  const raw = body[field];
  const value = typeof raw === 'string' ? raw.trim() : '';
  if (!value) return null;
  const max = MAX_TEXT[field] ?? 255;
  if (value.length > max) addFieldError(errors, field, `The ${label(field)} field must not be greater than ${max} characters.`);
  return value;
}

function email(value: string | null | undefined, field: string, errors: FieldErrors): string | null | undefined {
  if (value === undefined || value === null) return value;
  const lower = value.toLowerCase();
  if (!isEmail(lower)) {
    addFieldError(errors, field, `The ${label(field)} field must be a valid email address.`);
    return undefined;
  }
  return lower;
}

function money(body: Body, field: string, errors: FieldErrors): bigint | undefined {
  const parsed = parseMoney(body[field], label(field));
  if ('error' in parsed) {
    addFieldError(errors, field, parsed.error);
    return undefined;
  }
  return parsed.kobo;
}

/** `YYYY-MM-DD`, a real calendar day, not after today (UTC): a claim is for a service received. */
function serviceDate(body: Body, errors: FieldErrors): string | undefined {
  const value = requiredText(body, 'service_date', errors);
  if (value === undefined) return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const day = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : undefined;
  if (!day || day.toISOString().slice(0, 10) !== value) {
    addFieldError(errors, 'service_date', 'The service date field must be a valid date in the format YYYY-MM-DD.');
    return undefined;
  }
  if (value > new Date().toISOString().slice(0, 10)) {
    addFieldError(errors, 'service_date', 'The service date field must be a date before or equal to today.');
    return undefined;
  }
  return value;
}

function paymentMethod(body: Body, errors: FieldErrors): string | undefined {
  if (!given(body, 'payment_method') || body.payment_method === null) return undefined;
  const value = String(body.payment_method).trim();
  if (!isOneOf(PAYMENT_METHODS, value)) {
    addFieldError(errors, 'payment_method', 'The selected payment method is invalid.');
    return undefined;
  }
  return value;
}

export interface InvoiceFields {
  userEmail?: string;
  description?: string;
  serviceDate?: string;
  providerName?: string;
  totalKobo?: bigint;
  requestedKobo?: bigint;
  categoryName?: string;
  subcategoryName?: string | null;
  paymentMethod?: string;
  relationshipManagerEmail?: string | null;
  comment?: string | null;
}

/** I3's input: every required field present. */
export interface NewInvoiceFields extends InvoiceFields {
  userEmail: string;
  description: string;
  serviceDate: string;
  providerName: string;
  totalKobo: bigint;
  requestedKobo: bigint;
  categoryName: string;
}

const EDITABLE = [
  'user_email',
  'description',
  'service_date',
  'provider_name',
  'total_amount',
  'amount_requested',
  'category_name',
  'subcategory_name',
  'payment_method',
  'relationship_manager_email',
  'comment',
] as const;

/** I3: all required fields present and valid; `amount_requested` at most `total_amount`. */
export function validateCreate(body: Body): { input?: NewInvoiceFields; errors: FieldErrors } {
  const errors: FieldErrors = {};
  rejectUnknown(body, EDITABLE, errors);
  const input: InvoiceFields = {
    userEmail: email(requiredText(body, 'user_email', errors), 'user_email', errors) ?? undefined,
    description: requiredText(body, 'description', errors),
    serviceDate: serviceDate(body, errors),
    providerName: requiredText(body, 'provider_name', errors),
    totalKobo: given(body, 'total_amount') && body.total_amount !== null ? money(body, 'total_amount', errors) : undefined,
    requestedKobo: given(body, 'amount_requested') && body.amount_requested !== null ? money(body, 'amount_requested', errors) : undefined,
    categoryName: requiredText(body, 'category_name', errors),
    subcategoryName: optionalText(body, 'subcategory_name', errors) ?? null,
    paymentMethod: paymentMethod(body, errors) ?? 'self',
    relationshipManagerEmail: email(optionalText(body, 'relationship_manager_email', errors), 'relationship_manager_email', errors) ?? null,
    comment: optionalText(body, 'comment', errors) ?? null,
  };
  if (!given(body, 'total_amount') || body.total_amount === null)
    addFieldError(errors, 'total_amount', 'The total amount field is required.');
  if (!given(body, 'amount_requested') || body.amount_requested === null)
    addFieldError(errors, 'amount_requested', 'The amount requested field is required.');
  checkRequestedWithinTotal(input.requestedKobo, input.totalKobo, errors);
  const { userEmail, description, serviceDate: date, providerName, totalKobo, requestedKobo, categoryName } = input;
  // Each of these is undefined only with an error recorded for it.
  if (Object.keys(errors).length > 0) return { errors };
  if (!userEmail || !description || !date || !providerName || totalKobo === undefined || requestedKobo === undefined || !categoryName)
    return { errors };
  return {
    errors,
    input: { ...input, userEmail, description, serviceDate: date, providerName, totalKobo, requestedKobo, categoryName },
  };
}

export function checkRequestedWithinTotal(requested: bigint | undefined, total: bigint | undefined, errors: FieldErrors): void {
  if (requested !== undefined && total !== undefined && requested > total) {
    addFieldError(errors, 'amount_requested', 'The amount requested field must be less than or equal to the total amount.');
  }
}

/** I4: every editable field optional (a given one must be valid), plus `amount_paid` (one payment). */
export function validateUpdate(body: Body): { input: InvoiceFields; paidKobo?: bigint; errors: FieldErrors } {
  const errors: FieldErrors = {};
  rejectUnknown(body, [...EDITABLE, 'amount_paid'], errors);
  const input: InvoiceFields = {};
  if (given(body, 'user_email')) input.userEmail = email(requiredText(body, 'user_email', errors), 'user_email', errors) ?? undefined;
  if (given(body, 'description')) input.description = requiredText(body, 'description', errors);
  if (given(body, 'service_date')) input.serviceDate = serviceDate(body, errors);
  if (given(body, 'provider_name')) input.providerName = requiredText(body, 'provider_name', errors);
  if (given(body, 'total_amount')) input.totalKobo = money(body, 'total_amount', errors);
  if (given(body, 'amount_requested')) input.requestedKobo = money(body, 'amount_requested', errors);
  if (given(body, 'category_name')) input.categoryName = requiredText(body, 'category_name', errors);
  if (given(body, 'subcategory_name')) input.subcategoryName = optionalText(body, 'subcategory_name', errors);
  if (given(body, 'payment_method')) {
    input.paymentMethod = paymentMethod(body, errors);
    if (body.payment_method === null) addFieldError(errors, 'payment_method', 'The selected payment method is invalid.');
  }
  if (given(body, 'relationship_manager_email')) {
    input.relationshipManagerEmail = email(optionalText(body, 'relationship_manager_email', errors), 'relationship_manager_email', errors);
  }
  if (given(body, 'comment')) input.comment = optionalText(body, 'comment', errors);
  const paidKobo = given(body, 'amount_paid') ? money(body, 'amount_paid', errors) : undefined;
  return { input, paidKobo, errors };
}

export interface ManagerDecision {
  managerEmail: string;
  decision: 'approve' | 'reject';
  comment: string | null;
  notifyFinance: boolean;
  financeApproverEmail: string | null;
}

/** I5 */
export function validateManagerDecision(body: Body): { input?: ManagerDecision; errors: FieldErrors } {
  const errors: FieldErrors = {};
  rejectUnknown(body, ['manager_email', 'decision', 'comment', 'notify_finance', 'finance_approver_email'], errors);
  const managerEmail = email(requiredText(body, 'manager_email', errors), 'manager_email', errors);
  const decision = decisionOf(body, ['approve', 'reject'], errors);
  const comment = optionalText(body, 'comment', errors) ?? null;
  const notifyFinance = body.notify_finance === true;
  const financeApproverEmail = email(optionalText(body, 'finance_approver_email', errors), 'finance_approver_email', errors) ?? null;
  if (notifyFinance && decision === 'approve' && !financeApproverEmail && !errors.finance_approver_email) {
    addFieldError(errors, 'finance_approver_email', 'The finance approver email field is required when notify finance is true.');
  }
  // Each of these is undefined only with an error recorded for it.
  if (Object.keys(errors).length > 0 || !managerEmail || !decision) return { errors };
  return {
    errors,
    input: {
      managerEmail,
      decision,
      comment,
      notifyFinance,
      financeApproverEmail,
    },
  };
}

export interface FinanceDecision {
  financeApproverEmail: string;
  decision: 'approve' | 'deny';
  comment: string | null;
}

/** I6 */
export function validateFinanceDecision(body: Body): { input?: FinanceDecision; errors: FieldErrors } {
  const errors: FieldErrors = {};
  rejectUnknown(body, ['finance_approver_email', 'decision', 'comment'], errors);
  const financeApproverEmail = email(requiredText(body, 'finance_approver_email', errors), 'finance_approver_email', errors);
  const decision = decisionOf(body, ['approve', 'deny'], errors);
  const comment = optionalText(body, 'comment', errors) ?? null;
  // Each of these is undefined only with an error recorded for it.
  if (Object.keys(errors).length > 0 || !financeApproverEmail || !decision) return { errors };
  return { errors, input: { financeApproverEmail, decision, comment } };
}

function decisionOf<T extends string>(body: Body, allowed: readonly T[], errors: FieldErrors): T | undefined {
  const value = typeof body.decision === 'string' ? body.decision.trim() : '';
  if (!value) addFieldError(errors, 'decision', 'The decision field is required.');
  else if (!isOneOf(allowed, value)) addFieldError(errors, 'decision', 'The selected decision is invalid.');
  else return value;
  return undefined;
}

export interface ListQuery {
  transaction_id?: string;
  status?: string;
  approval_status?: string;
  sort?: string;
  order?: string;
  per_page?: number;
  page?: number;
}

/** I1's query: sort column, order and the two status filters; every problem at once (422). */
const ORDERS = ['asc', 'desc'] as const;

export function validateListQuery(query: ListQuery): { sort: SortColumn; order: 'asc' | 'desc' } {
  const fields: FieldErrors = {};
  const sort = query.sort ?? 'created_at';
  const order = (query.order ?? 'desc').toLowerCase();
  if (!isKeyOf(SORT_COLUMNS, sort)) addFieldError(fields, 'sort', 'The selected sort is invalid.');
  if (!isOneOf(ORDERS, order)) addFieldError(fields, 'order', 'The selected order is invalid.');
  if (query.status !== undefined && !isOneOf(INVOICE_STATUSES, query.status))
    addFieldError(fields, 'status', 'The selected status is invalid.');
  if (query.approval_status !== undefined && !isOneOf(APPROVAL_STATUSES, query.approval_status)) {
    addFieldError(fields, 'approval_status', 'The selected approval status is invalid.');
  }
  // The two guards again narrow the types; they hold whenever no error was added.
  if (Object.keys(fields).length > 0 || !isKeyOf(SORT_COLUMNS, sort) || !isOneOf(ORDERS, order)) throw invalid(fields);
  return { sort, order };
}
