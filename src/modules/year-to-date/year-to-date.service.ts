// Opening year-to-date (docs/payroll.md, "Opening year-to-date"): what an employee was paid and had
// withheld in a tax year before this service paid them, read and written per (user, year), and the
// CSV import (year-to-date.import.service.ts). Each write is one transaction, the user locked first.
import type { Db } from '../../db/client.js';
import { type AuditEvent, type FieldChange, recordAudit } from '../../platform/audit/index.js';
import { type FieldErrors, invalid, notFound } from '../../platform/errors.js';
import { columnToKobo, type Kobo, koboToNumber, koboToString } from '../../tax-engine/money.js';
import { type OpeningRow, type OpeningWrite, type PaidRow, yearToDateRepo } from './year-to-date.repo.js';
import { AMOUNT_FIELDS, type AmountField, checkOpening, checkYear, type OpeningValues } from './year-to-date.validation.js';

/**
 * One answer for a missing user and a path that is not a year: the resource is the user's year, and
 * the platform answers an unreadable path id with the route's one not-found message.
 */
export const NOT_FOUND = 'Year to date not found.';
export const SAVED = 'Opening year-to-date saved successfully.';

type Amounts = Record<AmountField, number>;

const amountsOf = (pick: (field: AmountField) => Kobo): Amounts =>
  Object.fromEntries(AMOUNT_FIELDS.map((field) => [field, koboToNumber(pick(field))])) as Amounts;

/** The answer of GET (and PUT): the opening, what the service paid since, and their sum. */
export function yearToDateAnswer(userId: number, year: number, opening: OpeningRow | undefined, paid: PaidRow) {
  const open = (field: AmountField) => (opening ? columnToKobo(opening[field]) : 0n);
  const since = (field: AmountField) => columnToKobo(paid[field]);
  return {
    user_id: userId,
    year,
    opening: opening
      ? { ...amountsOf(open), months: opening.months, created_at: opening.created_at, updated_at: opening.updated_at }
      : null,
    before_service: { ...amountsOf(open), months: opening?.months ?? 0 },
    paid_since: { ...amountsOf(since), paystubs: paid.paystubs },
    total: amountsOf((field) => open(field) + since(field)),
  };
}

export const toWrite = (userId: number, year: number, value: OpeningValues): OpeningWrite => ({
  userId,
  year,
  amounts: Object.fromEntries(AMOUNT_FIELDS.map((field) => [field, koboToString(value.amounts[field])])) as OpeningWrite['amounts'],
  months: value.months,
});

/**
 * The audit event of one opening written (by PUT or by a row of the import): the figures as given
 * (the opening balances a run starts from), each its own field in naira text (kobo are bigints,
 * which JSON cannot carry), with their year and months.
 */
export function openingAudit(companyId: number, userId: number, year: number, value: OpeningValues): AuditEvent {
  const given = Object.entries(value.amounts as Record<string, Kobo | null>).map(([field, kobo]): [string, FieldChange] => [
    field,
    [null, kobo === null ? null : koboToString(kobo)],
  ]);
  return {
    companyId,
    action: 'year_to_date.updated',
    target: { type: 'user', id: userId },
    changes: { year: [null, year], months: [null, value.months], ...Object.fromEntries(given) },
  };
}

/** As the annual return's path (docs/compliance.md): what is not a four-digit year names nothing (404); a year out of range is a 422. */
function yearOf(raw: string): number {
  if (!/^\d{4}$/.test(raw)) throw notFound(NOT_FOUND);
  const errors: FieldErrors = {};
  const year = checkYear(raw, errors);
  if (year === undefined) throw invalid(errors);
  return year;
}

export function createYearToDateService(deps: { db: Db }) {
  const { db } = deps;

  const read = async (companyId: number, userId: number, year: number) =>
    yearToDateAnswer(
      userId,
      year,
      await yearToDateRepo.find(db, companyId, userId, year),
      await yearToDateRepo.paidInYear(db, companyId, userId, year),
    );

  return {
    async show(companyId: number, userId: number, rawYear: string) {
      if (!(await yearToDateRepo.userExists(db, companyId, userId))) throw notFound(NOT_FOUND);
      return read(companyId, userId, yearOf(rawYear));
    },

    /** The console's confirm step: PUT's rules without writing (its refusals, or the figures read). */
    async check(companyId: number, userId: number, rawYear: string, body: Record<string, unknown>) {
      if (!(await yearToDateRepo.userExists(db, companyId, userId))) throw notFound(NOT_FOUND);
      const year = yearOf(rawYear);
      const checked = checkOpening(body, ['company_id']);
      if (!checked.ok) throw invalid(checked.errors);
      return { year, ...checked.value };
    },

    async put(companyId: number, userId: number, rawYear: string, body: Record<string, unknown>) {
      if (!(await yearToDateRepo.userExists(db, companyId, userId))) throw notFound(NOT_FOUND);
      const year = yearOf(rawYear);
      const checked = checkOpening(body, ['company_id']);
      if (!checked.ok) throw invalid(checked.errors);
      await db.transaction(async (tx) => {
        // Locked, so a user deleted meanwhile is not written for (and a concurrent run reads before or after).
        if (!(await yearToDateRepo.userExists(tx, companyId, userId, true))) throw notFound(NOT_FOUND);
        await yearToDateRepo.upsert(tx, companyId, [toWrite(userId, year, checked.value)]);
        await recordAudit(tx, [openingAudit(companyId, userId, year, checked.value)]);
      });
      return { message: SAVED, ...(await read(companyId, userId, year)) };
    },
  };
}

export type YearToDateService = ReturnType<typeof createYearToDateService>;
