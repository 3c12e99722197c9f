// GET /api/remittances (the month's schedules and what stops them being filed) and the schedules'
// downloads. Amounts are JSON numbers with two places like every paystub figure (docs/reference.md,
// "Common rules"), summed exactly in SQL (numeric) and in BigInt kobo here, never in floating
// point.
import type { Db } from '../../db/client.js';
import type { Attachment } from '../../platform/attachment.js';
import { invalidField, notFound } from '../../platform/errors.js';
import { koboToNumber } from '../../tax-engine/money.js';
import { pfaByCode, stateByCode } from '../reference-data/index.js';
import { MONTH_PATTERN, monthRange, nhfDueDate, nsitfDueDate, payeDueDate, pensionDueDate } from './due-dates.rules.js';
import { filingsRepo } from './filings.repo.js';
import { withStatuses } from './filings.rules.js';
import { type AggregateRow, type EmployeeRow, type EmployerRow, type MissingRow, remittancesRepo } from './remittances.repo.js';
import { kobo, nhfSheet, nsitfSheet, onePercent, payeSheet, pensionSheet } from './remittances.schedules.planner.js';
import { type Sheet, toCsv, toXlsx } from './sheets.view.js';

export const COMPANY_NOT_FOUND = 'Company not found.';
export const SCHEDULE_NOT_FOUND = 'Remittance schedule not found.';
/** The downloads of GET /api/remittances/{file}. */
export const SCHEDULE_FILES = ['paye.csv', 'paye.xlsx', 'pension.csv', 'pension.xlsx', 'nhf.csv', 'nhf.xlsx', 'nsitf.csv', 'nsitf.xlsx'];

/** A schedule or return file (sent by platform/attachment.ts). */
export type Download = Attachment;

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export async function render(sheet: Sheet, format: 'csv' | 'xlsx'): Promise<Download> {
  return format === 'csv'
    ? { filename: `${sheet.name}.csv`, contentType: 'text/csv; charset=utf-8', body: toCsv(sheet) }
    : { filename: `${sheet.name}.xlsx`, contentType: XLSX_TYPE, body: await toXlsx(sheet) };
}

export function parseMonth(month: unknown): string {
  if (typeof month !== 'string' || !MONTH_PATTERN.test(month))
    throw invalidField('month', 'The month must be a month as YYYY-MM (2000-01 to 2099-12).');
  return month;
}

function parseCode<T>(field: string, raw: unknown, lookup: (code: string) => T | undefined, list: string): T {
  if (typeof raw !== 'string' || raw.trim() === '') throw invalidField(field, `The ${field} is required.`);
  const found = lookup(raw.trim().toUpperCase());
  if (!found) throw invalidField(field, `The ${field} must be a code of ${list}.`);
  return found;
}

const amount = (value: string | null | undefined) => koboToNumber(kobo(value));

function missingEntry(row: MissingRow, nsitfOnSplit: boolean) {
  const fields: string[] = [];
  const schedules = new Set<string>();
  const flag = (on: boolean, field: string, ...names: string[]) => {
    if (!on) return;
    fields.push(field);
    for (const name of names) schedules.add(name);
  };
  flag(row.no_state, 'state_of_residence', 'paye');
  flag(row.no_pfa, 'pfa_code', 'pension');
  flag(row.no_rsa_pin, 'rsa_pin', 'pension');
  flag(row.no_nhf_number, 'nhf_number', 'nhf');
  // A paystub computed before the snapshot existed has no basic/housing/transport split.
  flag(row.no_split, 'basic_pay', ...(nsitfOnSplit ? ['nhf', 'nsitf'] : ['nhf']));
  return {
    user_id: row.user_id,
    employee_id: row.employee_id,
    name: `${row.first_name} ${row.last_name}`,
    fields,
    schedules: ['paye', 'pension', 'nhf', 'nsitf'].filter((name) => schedules.has(name)),
    // What no schedule files for this employee until the identifiers are there (0 when nothing).
    amounts: { paye: amount(row.paye_amount), pension: amount(row.pension_amount), nhf: amount(row.nhf_amount) },
  };
}

export function schedules(employer: EmployerRow, month: string, rows: AggregateRow[]) {
  const all = rows.find((row) => row.kind === 'all');
  const byKey = (a: { key: string | null }, b: { key: string | null }) => (a.key ?? '').localeCompare(b.key ?? '');
  const paye = rows
    .filter((row) => row.kind === 'paye' && row.key !== null)
    .sort(byKey)
    .map((row) => ({
      state: row.key as string,
      authority: stateByCode(row.key as string)?.tax_authority ?? null,
      employer_tax_id: employer.tax_ids[row.key as string] ?? null,
      employees: row.employees,
      amount: amount(row.tax),
      due_date: payeDueDate(month),
    }));
  const pension = rows
    .filter((row) => row.kind === 'pension' && row.key !== null && row.pension_employees > 0)
    .sort(byKey)
    .map((row) => ({
      pfa_code: row.key as string,
      pfa_name: pfaByCode(row.key as string)?.name ?? null,
      employees: row.pension_employees,
      employee_amount: amount(row.employee_pension),
      employer_amount: amount(row.employer_pension),
      voluntary_amount: amount(row.voluntary),
      total: koboToNumber(kobo(row.employee_pension) + kobo(row.employer_pension) + kobo(row.voluntary)),
      // Several runs in a month: the earliest payment sets the deadline (the strictest one).
      due_date: pensionDueDate(row.first_payment as string),
    }));
  const nsitfBase = employer.nsitf_base === 'basic_housing_transport' ? all?.bht : all?.nsitf_gross;
  // Each schedule's filed total beside what it cannot file for want of an identifier (`missing`).
  const filed = (kind: 'paye' | 'pension', part: (row: AggregateRow) => bigint) =>
    koboToNumber(
      rows
        .filter((row) => row.kind === kind && row.key !== null && (kind === 'paye' || row.pension_employees > 0))
        .reduce((sum, row) => sum + part(row), 0n),
    );
  return {
    paye,
    pension,
    nhf: {
      employees: all?.nhf_employees ?? 0,
      amount: amount(all?.nhf),
      missing_amount: amount(all?.nhf_missing),
      due_date: all?.first_nhf_payment ? nhfDueDate(all.first_nhf_payment) : null,
    },
    totals: {
      paye: { amount: filed('paye', (row) => kobo(row.tax)), missing_amount: amount(all?.paye_missing) },
      pension: {
        amount: filed('pension', (row) => kobo(row.employee_pension) + kobo(row.employer_pension) + kobo(row.voluntary)),
        missing_amount: amount(all?.pension_missing),
      },
      nhf: { amount: amount(all?.nhf), missing_amount: amount(all?.nhf_missing) },
    },
    nsitf: { base: employer.nsitf_base, amount: koboToNumber(onePercent(kobo(nsitfBase))), due_date: nsitfDueDate(month) },
  };
}

/** Today in Lagos (UTC+1, no daylight saving): the day a schedule's status is judged on. */
export const lagosToday = (now: Date) => new Date(now.getTime() + 3_600_000).toISOString().slice(0, 10);

export function createRemittancesService(deps: { db: Db; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const employerOf = async (companyId: number) => {
    const employer = await remittancesRepo.employer(db, companyId);
    if (!employer) throw notFound(COMPANY_NOT_FOUND);
    return employer;
  };

  return {
    async month(companyId: number, query: { month?: unknown }) {
      const month = parseMonth(query.month);
      const [from, to] = monthRange(month);
      const employer = await employerOf(companyId);
      const rows = await remittancesRepo.aggregates(db, companyId, from, to);
      const missing = await remittancesRepo.missing(db, companyId, from, to);
      const nsitfOnSplit = employer.nsitf_base === 'basic_housing_transport';
      const filings = await filingsRepo.ofMonths(db, companyId, [month]);
      return {
        message: 'Remittances retrieved successfully',
        month,
        // Each schedule with its filing and status (docs/compliance.md, "Filings and deadlines").
        schedules: withStatuses(schedules(employer, month, rows), month, filings, lagosToday(now())),
        missing: missing.map((row) => missingEntry(row, nsitfOnSplit)),
      };
    },

    async download(companyId: number, file: string, query: { month?: unknown; state?: unknown; pfa_code?: unknown }): Promise<Download> {
      if (!SCHEDULE_FILES.includes(file)) throw notFound(SCHEDULE_NOT_FOUND);
      const [schedule, format] = file.split('.') as [string, 'csv' | 'xlsx'];
      const month = parseMonth(query.month);
      const [from, to] = monthRange(month);
      const earliest = (rows: EmployeeRow[]) =>
        rows.reduce<string | null>((min, row) => (min === null || row.first_payment < min ? row.first_payment : min), null);
      if (schedule === 'paye') {
        const state = parseCode('state', query.state, stateByCode, 'GET /api/states');
        const employer = await employerOf(companyId);
        const rows = await remittancesRepo.employees(db, companyId, from, to, { kind: 'paye', state: state.code });
        return render(payeSheet(employer, month, state, payeDueDate(month), rows), format);
      }
      if (schedule === 'pension') {
        const pfa = parseCode('pfa_code', query.pfa_code, pfaByCode, 'GET /api/pfas');
        const employer = await employerOf(companyId);
        const rows = await remittancesRepo.employees(db, companyId, from, to, { kind: 'pension', pfaCode: pfa.code });
        const first = earliest(rows);
        return render(pensionSheet(employer, month, pfa, first ? pensionDueDate(first) : '', rows), format);
      }
      const employer = await employerOf(companyId);
      if (schedule === 'nhf') {
        const rows = await remittancesRepo.employees(db, companyId, from, to, { kind: 'nhf' });
        const first = earliest(rows);
        return render(nhfSheet(employer, month, first ? nhfDueDate(first) : null, rows), format);
      }
      const rows = await remittancesRepo.employees(db, companyId, from, to, { kind: 'nsitf' });
      return render(nsitfSheet(employer, month, nsitfDueDate(month), rows), format);
    },
  };
}

export type RemittancesService = ReturnType<typeof createRemittancesService>;
