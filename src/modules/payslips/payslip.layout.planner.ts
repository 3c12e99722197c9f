// A paystub → the lines of its payslip (docs/compliance.md, "Payslips"; the shapes in
// payslip.types.ts). Pure: what the PDF shows and in which order is decided here and table-tested;
// payslip.render.view.ts only draws it. Amounts come in as the database's exact decimal text and go
// out as `₦1,234,567.89` (platform `naira`, digits grouped as text), and the one subtraction (other
// taxable pay) is done in integer kobo.
import { columnToKobo, koboToString, naira } from '../../tax-engine/money.js';
import type { Payslip, PayslipLine, PayslipSource } from './payslip.types.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2026-01-31` → `31 Jan 2026` (text only: no Date, no time zone). */
export function longDate(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return date;
  return `${Number(match[3])} ${MONTHS[Number(match[2]) - 1]} ${match[1]}`;
}

/** Only the last four digits of an account number are ever printed. */
export function maskedAccount(accountNumber: string | null): string {
  const digits = (accountNumber ?? '').replace(/\D/g, '');
  return digits.length === 0 ? '—' : `•••• ${digits.slice(-4)}`;
}

export const TAX_LAWS: Record<string, string> = {
  pita: 'Personal Income Tax Act (as amended)',
  nta2025: 'Nigeria Tax Act 2025',
  none: 'No PAYE (tax regime set to none)',
};

/** Safe in a Content-Disposition filename and a ZIP entry: letters, digits, dot, dash, underscore. */
export function payslipFilename(employeeId: string, periodEnd: string): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '') || 'employee';
  return `payslip-${safe(employeeId)}-${safe(periodEnd)}.pdf`;
}

/** The law in the PAYE line (short: it shares a line with the amount). */
const PAYE_LAW: Record<string, string> = { pita: 'PITA, as amended', nta2025: 'Nigeria Tax Act 2025', none: 'none' };

/** Longest label that fits beside an amount in a half-page column at the payslip's size. */
export const MAX_LABEL = 34;
const shorten = (label: string) => (label.length <= MAX_LABEL ? label : `${label.slice(0, MAX_LABEL - 1).trimEnd()}…`);

const STATUS: Record<string, string> = {
  paid: 'Paid',
  processing: 'Payment in progress',
  unpaid: 'Not paid yet',
  held: 'Held: bank account changed after approval',
  failed: 'Payment failed',
  cancelled: 'Cancelled (never paid)',
};

function initials(name: string): string {
  const words = name.split(/\s+/).filter((word) => /^[\p{L}\p{N}]/u.test(word));
  return (
    words
      .slice(0, 2)
      .map((word) => word[0].toUpperCase())
      .join('') || '?'
  );
}

const orDash = (value: string | null) => (value?.trim() ? value.trim() : '—');
const line = (label: string, amount: string, total = false): PayslipLine =>
  total ? { label, amount: naira(amount), total } : { label, amount: naira(amount) };
const sum = (amounts: string[]) => koboToString(amounts.reduce((acc, amount) => acc + columnToKobo(amount), 0n));

function earnings(p: PayslipSource['paystub'], items: NonNullable<PayslipSource['items']>): PayslipLine[] {
  const split = p.basicPay !== null && p.housingPay !== null && p.transportPay !== null;
  const taxable = split
    ? [
        line('Basic salary', p.basicPay as string),
        line('Housing allowance', p.housingPay as string),
        line('Transport allowance', p.transportPay as string),
        // What the split does not name (the percentages need not add up to 100).
        line(
          'Other taxable pay',
          koboToString(columnToKobo(p.taxableIncome) - columnToKobo(sum([p.basicPay!, p.housingPay!, p.transportPay!]))),
        ),
      ]
    : // Paystubs computed before the snapshot existed (0088) know only their taxable total.
      [line('Taxable pay', p.taxableIncome)];
  // Reimbursement items are already in the reimbursements figure; deductions are on the other side.
  const paid = items.filter((i) => i.treatment === 'earning' && i.code !== 'reimbursement');
  return [
    ...taxable,
    line('Non-taxable allowances', p.otherAllowances),
    ...paid.filter((i) => i.cash).map((i) => line(shorten(i.name), i.amount)),
    line('Gross pay', p.grossPay, true),
    ...paid.filter((i) => !i.cash).map((i) => line(shorten(`${i.name} (taxed, not paid)`), i.amount)),
    line('Reimbursements (not taxed)', p.reimbursements),
    line('Total earnings', sum([p.grossPay, p.reimbursements]), true),
  ];
}

function deductions(source: PayslipSource): PayslipLine[] {
  const p = source.paystub;
  const custom = source.customContributions.filter((c) => columnToKobo(c.employee) !== 0n);
  const taken = (source.items ?? []).filter((i) => i.treatment === 'deduction');
  return [
    ...payeLines(p),
    line('Pension, employee', p.pension),
    line('NHF', p.nhf),
    line('NHIS, employee', p.nhis),
    ...custom.map((c) => line(shorten(c.name), c.employee)),
    ...taken.map((i) => line(shorten(i.name), i.amount)),
    line(
      'Total deductions',
      sum([p.taxWithheld, p.pension, p.nhf, p.nhis, ...custom.map((c) => c.employee), ...taken.map((i) => i.amount)]),
      true,
    ),
  ];
}

/**
 * PAYE, and the year-end true-up on its own line (docs/payroll.md, "Year-end true-up"): the PAYE
 * line is the period's own tax, the adjustment (negative: a refund) follows; together tax_withheld.
 */
function payeLines(p: PayslipSource['paystub']): PayslipLine[] {
  const label = shorten(`PAYE (${PAYE_LAW[p.taxRegime] ?? p.taxRegime})`);
  const trueUp = columnToKobo(p.taxTrueUp ?? '0');
  if (trueUp === 0n) return [line(label, p.taxWithheld)];
  return [line(label, koboToString(columnToKobo(p.taxWithheld) - trueUp)), line('PAYE year-end adjustment', p.taxTrueUp as string)];
}

function employer(source: PayslipSource): PayslipLine[] {
  const p = source.paystub;
  const custom = source.customContributions.filter((c) => columnToKobo(c.employer) !== 0n);
  return [
    line('Pension, employer', p.employerPension),
    line('NHIS, employer', p.employerNhis),
    ...custom.map((c) => line(shorten(c.name), c.employer)),
    line('Total cost to employer', p.employerCost, true),
  ];
}

/**
 * Each loan or advance the paystub repays, with the balance left once it is paid (docs/payroll.md,
 * "Loans and salary advances"): the repayment itself is on the deductions side.
 */
function loanLines(items: NonNullable<PayslipSource['items']>): PayslipLine[] {
  return items.flatMap((i) =>
    i.loan ? [line(`${i.code === 'advance_recovery' ? 'Advance' : 'Loan'} #${i.loan.id}, balance after`, i.loan.balanceAfter)] : [],
  );
}

/** Decimal text of a + b, exact (kobo). */
const plus = (a: string, b: string) => koboToString(columnToKobo(a) + columnToKobo(b));

/**
 * The opening figures on lines of their own, the first labelled "Before this service (opening)" with
 * the gross pay, then the year's gross pay and PAYE with them
 * (docs/payroll.md, "Opening year-to-date"); nothing when none were recorded.
 */
function openingLines(ytd: PayslipSource['ytd']): PayslipLine[] {
  const opening = ytd.opening;
  if (!opening) return [];
  return [
    // Labels within the 34 characters a line holds (as shortened contribution names).
    line('Before this service (opening)', opening.gross),
    line('Opening PAYE', opening.tax),
    line('Opening pension, employee', opening.pension),
    line('Gross pay with opening', plus(ytd.gross, opening.gross), true),
    line('PAYE with opening', plus(ytd.tax, opening.tax)),
  ];
}

export function payslipLayout(source: PayslipSource): Payslip {
  const { company, employee: e, paystub: p, ytd } = source;
  return {
    filename: payslipFilename(e.employeeId, p.payPeriodEnd),
    title: 'Payslip',
    company: {
      name: company.name,
      initials: initials(company.name),
      addressLines: (company.address ?? '')
        .split(/\r?\n/)
        .map((part) => part.trim())
        .filter(Boolean)
        .slice(0, 4),
    },
    employee: [
      ['Name', shorten(`${e.firstName} ${e.lastName}`.trim())],
      ['Employee ID', e.employeeId],
      ['Title', orDash(e.title)],
      ['Department', orDash(e.department)],
      ['Bank', orDash(e.bankName)],
      ['Account', maskedAccount(e.accountNumber)],
    ],
    period: [
      ['Pay period', `${longDate(p.payPeriodStart)} – ${longDate(p.payPeriodEnd)}`],
      ['Payment date', source.paymentDate ? longDate(source.paymentDate) : p.paidOn ? longDate(p.paidOn) : '—'],
      ['Status', STATUS[p.status] ?? p.status],
      ['Payroll run', p.transactionId],
      ['Tax law', TAX_LAWS[p.taxRegime] ?? p.taxRegime],
      ['PAYE state', p.payeState ? `${p.payeState.name} (${p.payeState.code})` : '—'],
    ],
    earnings: earnings(p, source.items ?? []),
    deductions: deductions(source),
    netPay: naira(p.netPay),
    employer: employer(source),
    loans: loanLines(source.items ?? []),
    ytdTitle: `Year to date, ${ytd.year} (${ytd.paystubs} payslip${ytd.paystubs === 1 ? '' : 's'})`,
    ytd: [
      line('Gross pay', ytd.gross),
      line('PAYE', ytd.tax),
      line('Pension, employee', ytd.pension),
      line('Net pay', ytd.net, true),
      ...openingLines(ytd),
    ],
    footer:
      'Net pay = gross pay − deductions + reimbursements. Employer contributions are paid by the employer on top of your pay. ' +
      'Year to date: this payslip and your earlier ones of the same calendar year that were not cancelled or failed.' +
      (ytd.opening ? ' Before this service (opening): pay and tax of the year recorded as paid before this payroll service.' : ''),
  };
}
