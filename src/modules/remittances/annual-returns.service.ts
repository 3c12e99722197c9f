// GET /api/annual-returns/{year} (the employer's annual PAYE return to one state) and
// /api/annual-returns/{year}/itf (the Industrial Training Fund levy). A year's figures are the paid
// paystubs of runs whose payment_date falls in that calendar year (docs/compliance.md).
import type { Db } from '../../db/client.js';
import { invalidField, notFound } from '../../platform/errors.js';
import { koboToNumber } from '../../tax-engine/money.js';
import { stateByCode } from '../reference-data/index.js';
import { annualReturnsOpeningRepo, type OpeningRow } from './annual-returns.opening.repo.js';
import { annualReliefs } from './annual-returns.rules.js';
import { annualReturnDueDate, itfDueDate } from './due-dates.rules.js';
import { type EmployeeRow, type EmployerRow, remittancesRepo } from './remittances.repo.js';
import { kobo, onePercent } from './remittances.schedules.planner.js';
import { COMPANY_NOT_FOUND, type Download, render } from './remittances.service.js';
import type { Cell, Sheet } from './sheets.view.js';

/** The ITF Act (as amended 2011) s.6: employers of five or more employees contribute. */
export const ITF_MIN_EMPLOYEES = 5;
/** The first year the engine computes (docs/payroll.md, "Statutory amendments", amendment 2). */
const FIRST_YEAR = 2021;

/** The current year in Lagos (UTC+1, no daylight saving): a return for a year that has not begun is refused. */
const lagosYear = (now: Date) => new Date(now.getTime() + 3_600_000).getUTCFullYear();

export const ANNUAL_RETURN_NOT_FOUND = 'Annual return not found.';

/** A path that is not a four-digit year names no return (404); a year out of range is a 422. */
export function parseYear(raw: string, now: Date): number {
  if (!/^\d{4}$/.test(raw)) throw notFound(ANNUAL_RETURN_NOT_FOUND);
  const year = Number(raw);
  if (year < FIRST_YEAR) throw invalidField('year', `The year must be a year from ${FIRST_YEAR}.`);
  if (year > lagosYear(now)) throw invalidField('year', 'The year has not started yet.');
  return year;
}

const FIGURES = [
  ['gross_emoluments', 'Gross emoluments', 'gross'],
  ['basic', 'Basic salary', 'basic'],
  ['housing', 'Housing allowance', 'housing'],
  ['transport', 'Transport allowance', 'transport'],
  ['other_allowances', 'Other allowances (non-taxable)', 'other_allowances'],
  ['pension', 'Pension (employee)', 'employee_pension'],
  ['nhf', 'NHF', 'nhf'],
  ['nhis', 'NHIS (employee)', 'nhis'],
  ['other_deductions', 'Other deductions', 'other_deductions'],
] as const satisfies readonly (readonly [string, string, keyof EmployeeRow])[];

const totalDeductions = (row: EmployeeRow) => kobo(row.employee_pension) + kobo(row.nhf) + kobo(row.nhis) + kobo(row.other_deductions);

/**
 * Opening year-to-date (docs/compliance.md, "Annual return"): what the employee was paid and had
 * withheld in the year before this service, beside (never inside) the figures this employer filed.
 */
const OPENING = [
  ['opening_gross', 'Before this service: gross', 'gross_pay'],
  ['opening_taxable', 'Before this service: taxable pay', 'taxable_pay'],
  ['opening_tax', 'Before this service: tax', 'tax_withheld'],
  ['opening_pension', 'Before this service: pension', 'employee_pension'],
  ['opening_nhf', 'Before this service: NHF', 'nhf'],
  ['opening_nhis', 'Before this service: NHIS', 'nhis'],
] as const satisfies readonly (readonly [string, string, keyof OpeningRow])[];

const openingKobo = (opening: OpeningRow | undefined, column: (typeof OPENING)[number][2]) => (opening ? kobo(opening[column]) : 0n);

function returnRow(row: EmployeeRow, year: number, opening: OpeningRow | undefined) {
  const reliefs = annualReliefs(row, year);
  return {
    user_id: row.user_id,
    employee_id: row.employee_id,
    surname: row.last_name,
    other_names: row.first_name,
    tax_id: row.tax_id,
    nin: row.nin,
    months_employed: row.months,
    // The last day of employment when it fell in or before the year (docs/compliance.md, "Leavers in schedules").
    exit_date: row.exit_date,
    ...Object.fromEntries(FIGURES.map(([field, , column]) => [field, koboToNumber(kobo(row[column]))])),
    total_deductions: koboToNumber(totalDeductions(row)),
    rent_relief: koboToNumber(reliefs.rentRelief),
    life_assurance: koboToNumber(reliefs.lifeAssurance),
    pension_nhf_relief: koboToNumber(reliefs.pensionNhfRelief),
    chargeable_income: reliefs.chargeableIncome === null ? null : koboToNumber(reliefs.chargeableIncome),
    tax_deducted: koboToNumber(kobo(row.tax)),
    ...Object.fromEntries(OPENING.map(([field, , column]) => [field, koboToNumber(openingKobo(opening, column))])),
    opening_months: opening?.months ?? 0,
  };
}

function returnSheet(
  employer: EmployerRow,
  year: number,
  state: { code: string; tax_authority: string },
  rows: EmployeeRow[],
  openings: Map<number, OpeningRow>,
): Sheet {
  return {
    name: `annual-return-${state.code}-${year}`,
    title: `Annual PAYE return (Form H1): ${state.tax_authority}`,
    header: [
      ['Employer', employer.name],
      [`Employer tax ID (${state.tax_authority})`, employer.tax_ids[state.code] ?? '(not set)'],
      ['Year', String(year)],
      ['Due date', annualReturnDueDate(year)],
    ],
    columns: [
      { title: 'S/N', kind: 'int' },
      { title: 'Staff ID', kind: 'text' },
      { title: 'Surname', kind: 'text' },
      { title: 'Other names', kind: 'text' },
      { title: 'Tax ID', kind: 'text' },
      { title: 'NIN', kind: 'text' },
      { title: 'Months employed', kind: 'int' },
      { title: 'Exit date', kind: 'text' },
      // The opening figures before this employer's own, so that the last column stays the tax deducted.
      ...OPENING.map(([, title]) => ({ title, kind: 'money' as const })),
      { title: 'Before this service: months', kind: 'int' },
      ...FIGURES.map(([, title]) => ({ title, kind: 'money' as const })),
      { title: 'Total deductions', kind: 'money' },
      { title: 'Rent relief', kind: 'money' },
      { title: 'Life assurance', kind: 'money' },
      { title: 'Pension and NHF relief', kind: 'money' },
      { title: 'Chargeable income', kind: 'money' },
      { title: 'Tax deducted', kind: 'money' },
    ],
    rows: rows.map((row, index): Cell[] => {
      const reliefs = annualReliefs(row, year);
      return [
        { int: index + 1 },
        row.employee_id,
        row.last_name,
        row.first_name,
        row.tax_id,
        row.nin,
        { int: row.months },
        row.exit_date,
        ...OPENING.map(([, , column]) => ({ kobo: openingKobo(openings.get(row.user_id), column) })),
        { int: openings.get(row.user_id)?.months ?? 0 },
        ...FIGURES.map(([, , column]) => ({ kobo: kobo(row[column]) })),
        { kobo: totalDeductions(row) },
        { kobo: reliefs.rentRelief },
        { kobo: reliefs.lifeAssurance },
        { kobo: reliefs.pensionNhfRelief },
        reliefs.chargeableIncome === null ? null : { kobo: reliefs.chargeableIncome },
        { kobo: kobo(row.tax) },
      ];
    }),
  };
}

export const RETURN_FORMATS = ['json', 'csv', 'xlsx'] as const;

export function createAnnualReturnsService(deps: { db: Db; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const employerOf = async (companyId: number) => {
    const employer = await remittancesRepo.employer(db, companyId);
    if (!employer) throw notFound(COMPANY_NOT_FOUND);
    return employer;
  };

  return {
    /** JSON, or a Download for `format` csv/xlsx. */
    async annualReturn(
      companyId: number,
      yearText: string,
      query: { state?: unknown; format?: unknown },
    ): Promise<{ json: unknown; download?: undefined } | { download: Download; json?: undefined }> {
      const year = parseYear(yearText, now());
      const format = query.format ?? 'json';
      if (typeof format !== 'string' || !(RETURN_FORMATS as readonly string[]).includes(format)) {
        throw invalidField('format', `The format must be one of: ${RETURN_FORMATS.join(', ')}.`);
      }
      if (typeof query.state !== 'string' || query.state.trim() === '') throw invalidField('state', 'The state is required.');
      const state = stateByCode(query.state.trim().toUpperCase());
      if (!state) throw invalidField('state', 'The state must be a code of GET /api/states.');
      const employer = await employerOf(companyId);
      const rows = await remittancesRepo.employees(db, companyId, `${year}-01-01`, `${year + 1}-01-01`, {
        kind: 'paye',
        state: state.code,
      });
      const openingRows = await annualReturnsOpeningRepo.openings(
        db,
        companyId,
        year,
        rows.map((row) => row.user_id),
      );
      const openings = new Map(openingRows.map((opening) => [opening.user_id, opening]));
      if (format !== 'json')
        return { download: await render(returnSheet(employer, year, state, rows, openings), format as 'csv' | 'xlsx') };
      const totals = { gross_emoluments: 0n, total_deductions: 0n, tax_deducted: 0n };
      for (const row of rows) {
        totals.gross_emoluments += kobo(row.gross);
        totals.total_deductions += totalDeductions(row);
        totals.tax_deducted += kobo(row.tax);
      }
      return {
        json: {
          message: 'Annual return retrieved successfully',
          year,
          state: state.code,
          authority: state.tax_authority,
          employer_tax_id: employer.tax_ids[state.code] ?? null,
          due_date: annualReturnDueDate(year),
          employees: rows.length,
          totals: Object.fromEntries(Object.entries(totals).map(([key, value]) => [key, koboToNumber(value)])),
          data: rows.map((row) => returnRow(row, year, openings.get(row.user_id))),
        },
      };
    },

    async itf(companyId: number, yearText: string) {
      const year = parseYear(yearText, now());
      await employerOf(companyId);
      const { employees, gross } = await remittancesRepo.payroll(db, companyId, `${year}-01-01`, `${year + 1}-01-01`);
      const eligible = employees >= ITF_MIN_EMPLOYEES;
      return {
        message: 'ITF levy retrieved successfully',
        year,
        eligible,
        employees,
        annual_payroll: koboToNumber(kobo(gross)),
        amount: koboToNumber(eligible ? onePercent(kobo(gross)) : 0n),
        due_date: itfDueDate(year),
      };
    },
  };
}

export type AnnualReturnsService = ReturnType<typeof createAnnualReturnsService>;
