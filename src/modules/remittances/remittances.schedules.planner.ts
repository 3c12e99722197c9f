// The schedules as sheets (sheets.view.ts writes them): columns as the authorities ask for them
// (docs/compliance.md lists each with its source). Pure: rows in, a Sheet out.
import { columnToKobo, type Kobo, koboToString } from '../../tax-engine/money.js';
import type { EmployeeRow, EmployerRow } from './remittances.repo.js';
import type { Cell, Column, Sheet } from './sheets.view.js';

export const kobo = (value: string | null | undefined): Kobo => (value === null || value === undefined ? 0n : columnToKobo(value));
const money = (value: string | null | undefined): Cell => ({ kobo: kobo(value) });
const text = (title: string): Column => ({ title, kind: 'text' });
const amount = (title: string): Column => ({ title, kind: 'money' });
const SN: Column = { title: 'S/N', kind: 'int' };
const NOT_SET = '(not set)';

/** 1% of a base, rounded half-up to the kobo (NSITF and ITF). */
export const onePercent = (base: Kobo): Kobo => (base + 50n) / 100n;

export function payeSheet(
  employer: EmployerRow,
  month: string,
  state: { code: string; tax_authority: string },
  dueDate: string,
  rows: EmployeeRow[],
): Sheet {
  return {
    name: `paye-${state.code}-${month}`,
    title: `PAYE monthly schedule: ${state.tax_authority}`,
    header: [
      ['Employer', employer.name],
      [`Employer tax ID (${state.tax_authority})`, employer.tax_ids[state.code] ?? NOT_SET],
      ['Month', month],
      ['Due date', dueDate],
    ],
    columns: [
      SN,
      text('Staff ID'),
      text('Surname'),
      text('Other names'),
      text('Payer ID / Tax ID'),
      text('NIN'),
      amount('Gross monthly pay'),
      amount('Taxable pay'),
      amount('Tax deducted'),
      amount('Tax remitted'),
      text('Period'),
      text('Payment date'),
    ],
    rows: rows.map((row, index) => [
      { int: index + 1 },
      row.employee_id,
      row.last_name,
      row.first_name,
      row.tax_id,
      row.nin,
      money(row.gross),
      money(row.taxable),
      money(row.tax),
      // What this schedule remits is what was deducted: the employer pays the whole month's PAYE.
      money(row.tax),
      month,
      row.payment_date,
    ]),
  };
}

export function pensionSheet(
  employer: EmployerRow,
  month: string,
  pfa: { code: string; name: string },
  dueDate: string,
  rows: EmployeeRow[],
): Sheet {
  return {
    name: `pension-${pfa.code}-${month}`,
    title: `Pension contribution schedule: ${pfa.name}`,
    header: [
      ['Employer', employer.name],
      ['PenCom employer code', employer.pencom_employer_code ?? NOT_SET],
      ['PFA', `${pfa.name} (${pfa.code})`],
      ['Month', month],
      ['Due date', dueDate],
    ],
    columns: [
      SN,
      text('RSA PIN'),
      text('Surname'),
      text('First name'),
      text('Middle name'),
      text('Staff ID'),
      amount('Pension base'),
      amount('Employee contribution'),
      amount('Employer contribution'),
      amount('Voluntary contribution'),
      amount('Total'),
      // A leaver's last day (docs/compliance.md, "Leavers in schedules"): the PFA stops expecting them.
      text('Exit date'),
    ],
    rows: rows.map((row, index) => [
      { int: index + 1 },
      row.rsa_pin,
      row.last_name,
      row.first_name,
      // Users keep a first and a last name only.
      null,
      row.employee_id,
      money(row.bht),
      money(row.employee_pension),
      money(row.employer_pension),
      money(row.voluntary),
      { kobo: kobo(row.employee_pension) + kobo(row.employer_pension) + kobo(row.voluntary) },
      row.exit_date,
    ]),
  };
}

export function nhfSheet(employer: EmployerRow, month: string, dueDate: string | null, rows: EmployeeRow[]): Sheet {
  return {
    name: `nhf-${month}`,
    title: 'National Housing Fund contribution schedule: Federal Mortgage Bank of Nigeria',
    header: [
      ['Employer', employer.name],
      ['NHF employer number', employer.nhf_employer_number ?? NOT_SET],
      ['Month', month],
      ['Due date', dueDate ?? ''],
    ],
    columns: [SN, text('NHF number'), text('Surname'), text('Other names'), text('Staff ID'), amount('Basic pay'), amount('Contribution')],
    rows: rows.map((row, index) => [
      { int: index + 1 },
      row.nhf_number,
      row.last_name,
      row.first_name,
      row.employee_id,
      money(row.basic),
      money(row.nhf),
    ]),
  };
}

export function nsitfSheet(employer: EmployerRow, month: string, dueDate: string, rows: EmployeeRow[]): Sheet {
  const gross = employer.nsitf_base !== 'basic_housing_transport';
  const base = rows.reduce((sum, row) => sum + kobo(gross ? row.nsitf_gross : row.bht), 0n);
  return {
    name: `nsitf-${month}`,
    title: "NSITF Employees' Compensation Scheme contribution schedule",
    header: [
      ['Employer', employer.name],
      ['NSITF employer number', employer.nsitf_number ?? NOT_SET],
      ['Month', month],
      ['Base', gross ? 'Gross pay' : 'Basic + housing + transport'],
      // 1% of the whole payroll, rounded once (the same figure as GET /api/remittances).
      ['Contribution (1% of the total base)', koboToString(onePercent(base))],
      ['Due date', dueDate],
    ],
    columns: [SN, text('Staff ID'), text('Surname'), text('Other names'), amount(gross ? 'Gross pay' : 'Basic + housing + transport')],
    rows: rows.map((row, index) => [
      { int: index + 1 },
      row.employee_id,
      row.last_name,
      row.first_name,
      money(gross ? row.nsitf_gross : row.bht),
    ]),
  };
}
