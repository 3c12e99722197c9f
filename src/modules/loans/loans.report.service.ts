// The loans report (docs/payroll.md, "Loans report"): every loan and advance of the company with
// what was lent, repaid (principal and interest, from paid paystubs), settled early, written off
// and still owed, and the totals, as JSON or CSV. Amounts are exact decimal text summed in kobo,
// so each total is the sum of its column to the kobo; for a loan whose repayments all went through
// paystubs, principal = repaid + settled + written off + balance.
import type { Db } from '../../db/client.js';
import { csvText } from '../../platform/csv.js';
import { invalidField } from '../../platform/errors.js';
import { columnToKobo, type Kobo, koboToString } from '../../tax-engine/money.js';
import { type LoanReportRow, loansReportRepo } from './loans.report.repo.js';
import { rateText } from './loans.serializer.js';

export const REPORT_FORMATS = ['json', 'csv'] as const;
const AMOUNTS = ['principal', 'repaid_principal', 'interest_paid', 'settled', 'written_off', 'balance'] as const;
type Amount = (typeof AMOUNTS)[number];

function reportLine(row: LoanReportRow) {
  const closed = row.closed_balance ?? '0.00';
  return {
    loan_id: row.id,
    user_id: row.user_id,
    employee_id: row.employee_id,
    name: `${row.first_name} ${row.last_name}`,
    kind: row.kind,
    status: row.status,
    start_period: row.start_period,
    instalment: row.instalment,
    interest_rate_annual: rateText(row.interest_rate_annual),
    repayments: row.repayments,
    last_repayment_period: row.last_repayment_period,
    principal: row.principal,
    repaid_principal: row.repaid_principal,
    interest_paid: row.interest_paid,
    // A loan closed by settle is paid_off with its closing balance kept; by write-off, written_off.
    settled: row.status === 'paid_off' && row.closed_balance !== null ? closed : '0.00',
    written_off: row.status === 'written_off' ? closed : '0.00',
    balance: row.balance,
  };
}
type ReportLine = ReturnType<typeof reportLine>;

const CSV_COLUMNS: (keyof ReportLine)[] = [
  'loan_id',
  'employee_id',
  'name',
  'kind',
  'status',
  'start_period',
  'instalment',
  'interest_rate_annual',
  'repayments',
  'last_repayment_period',
  ...AMOUNTS,
];

/** Columns written as numbers (the amounts and counts); the rest are text, neutralised as every CSV's. */
const NUMERIC = new Set<keyof ReportLine>(['loan_id', 'instalment', 'repayments', ...AMOUNTS]);

function csvOf(lines: ReportLine[], totals: Record<Amount, string>): string {
  const cell = (line: ReportLine, column: keyof ReportLine) => {
    const value = line[column];
    if (value === null) return null;
    return NUMERIC.has(column) ? { number: String(value) } : String(value);
  };
  const money = new Set<string>(AMOUNTS);
  const total = CSV_COLUMNS.map((column, i) => (i === 0 ? 'Total' : money.has(column) ? { number: totals[column as Amount] } : null));
  return csvText([CSV_COLUMNS, ...lines.map((line) => CSV_COLUMNS.map((column) => cell(line, column))), total]);
}

export function createLoansReport(deps: { db: Db }) {
  return {
    async report(companyId: number, query: { status?: string; kind?: string; format?: string }) {
      const format = query.format ?? 'json';
      if (!(REPORT_FORMATS as readonly string[]).includes(format))
        throw invalidField('format', `The format must be one of: ${REPORT_FORMATS.join(', ')}.`);
      const lines = (await loansReportRepo.rows(deps.db, companyId, query)).map(reportLine);
      const sums = Object.fromEntries(AMOUNTS.map((amount) => [amount, 0n])) as Record<Amount, Kobo>;
      for (const line of lines) for (const amount of AMOUNTS) sums[amount] += columnToKobo(line[amount]);
      const totals = Object.fromEntries(AMOUNTS.map((amount) => [amount, koboToString(sums[amount])])) as Record<Amount, string>;
      if (format === 'csv') return { csv: csvOf(lines, totals) };
      return { json: { message: 'Loans report retrieved successfully.', loans: lines.length, totals, data: lines } };
    },
  };
}

export type LoansReport = ReturnType<typeof createLoansReport>;
