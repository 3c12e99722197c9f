// The input rules of POST /api/remittances/filings and GET /api/remittances/calendar
// (docs/compliance.md, "Filings and deadlines"): each field read with its message, every message at
// once (422 {error: {field: [message]}}); filings.service.ts acts on what they return.
import { invalid, invalidField } from '../../platform/errors.js';
import { toKobo } from '../../tax-engine/money.js';
import { pfaByCode, stateByCode } from '../reference-data/index.js';
import { MONTH_PATTERN } from './due-dates.rules.js';

const KINDS = ['paye', 'pension', 'nhf', 'nsitf'] as const;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const validDate = (value: unknown): value is string =>
  typeof value === 'string' && DATE.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;
const DAY_MS = 86_400_000;
/** Calendar ranges up to a year and a day. */
const MAX_RANGE_DAYS = 366;

export interface FilingInput {
  kind?: unknown;
  month?: unknown;
  authority?: unknown;
  amount?: unknown;
  paid_on?: unknown;
  receipt_reference?: unknown;
}

/** A filing as read: `authority` is '' for NHF and NSITF, `amount` in kobo. */
export interface Filing {
  kind: string;
  month: string;
  authority: string;
  amount: bigint;
  paidOn: string;
  reference: string;
}

/** The filing `input` names, or a 422 with every field's message; `today` (the Lagos day) is asked only of a valid paid_on. */
export function readFiling(input: FilingInput, today: () => string): Filing {
  const errors: Record<string, string[]> = {};
  const kind = typeof input.kind === 'string' ? input.kind.trim().toLowerCase() : '';
  if (!(KINDS as readonly string[]).includes(kind)) errors.kind = ['The kind must be paye, pension, nhf or nsitf.'];
  if (typeof input.month !== 'string' || !MONTH_PATTERN.test(input.month))
    errors.month = ['The month must be a month as YYYY-MM (2000-01 to 2099-12).'];
  let authority = '';
  const raw = typeof input.authority === 'string' ? input.authority.trim().toUpperCase() : input.authority;
  if (kind === 'paye') {
    if (typeof raw !== 'string' || !stateByCode(raw))
      errors.authority = ['The authority of a PAYE filing must be a state code of GET /api/states.'];
    else authority = raw;
  } else if (kind === 'pension') {
    if (typeof raw !== 'string' || !pfaByCode(raw))
      errors.authority = ['The authority of a pension filing must be a PFA code of GET /api/pfas.'];
    else authority = raw;
  } else if (raw !== undefined && raw !== null && raw !== '') errors.authority = ['NHF and NSITF filings name no authority (null).'];
  const amount = toKobo(typeof input.amount === 'number' ? String(input.amount) : input.amount);
  if (amount === null || amount > 100_000_000_000_000n)
    errors.amount = ['The amount must be a non-negative amount with at most 2 decimal places.'];
  if (!validDate(input.paid_on)) errors.paid_on = ['The paid on field must be a valid date in the format YYYY-MM-DD.'];
  else if (input.paid_on > today()) errors.paid_on = ['The paid on date cannot be in the future.'];
  const reference = typeof input.receipt_reference === 'string' ? input.receipt_reference.trim() : '';
  if (reference === '' || reference.length > 100)
    errors.receipt_reference = ['The receipt reference is required (at most 100 characters).'];
  if (Object.keys(errors).length > 0) throw invalid(errors);
  return {
    kind,
    month: input.month as string,
    authority,
    amount: amount as bigint,
    paidOn: input.paid_on as string,
    reference,
  };
}

/** The calendar's `from` and `to` (YYYY-MM-DD, in order, at most 366 days apart), or a 422. */
export function readCalendarRange(query: { from?: unknown; to?: unknown }): { from: string; to: string } {
  const errors: Record<string, string[]> = {};
  for (const field of ['from', 'to'] as const)
    if (!validDate(query[field])) errors[field] = [`The ${field} field must be a valid date in the format YYYY-MM-DD.`];
  if (Object.keys(errors).length > 0) throw invalid(errors);
  const from = query.from as string;
  const to = query.to as string;
  if (to < from) throw invalidField('to', 'The to date must be on or after the from date.');
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS > MAX_RANGE_DAYS) throw invalidField('to', 'The range may span at most 366 days.');
  return { from, to };
}
