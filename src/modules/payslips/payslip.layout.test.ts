// The payslip's lines as pure tables: formatting (₦, dates, masked account, file name) and what
// each section lists for a paystub, the totals adding up to the stored net pay to the kobo.
import { describe, expect, it } from 'vitest';
import { columnToKobo } from '../../tax-engine/money.js';
import { longDate, maskedAccount, payslipFilename, payslipLayout } from './payslip.layout.planner.js';
import type { PayslipSource } from './payslip.types.js';

const base: PayslipSource = {
  company: { name: 'Acme Nigeria Ltd', address: '12 Marina Road\nLagos Island, Lagos' },
  employee: {
    firstName: 'Adaeze',
    lastName: 'Okafor',
    employeeId: 'ACME-0007',
    title: 'Accountant',
    department: null,
    bankName: 'Access Bank',
    accountNumber: '0123456789',
  },
  paystub: {
    payPeriodStart: '2026-01-01',
    payPeriodEnd: '2026-01-31',
    status: 'paid',
    transactionId: 'PR-20260125-4F7K2Q',
    paidOn: '2026-01-29',
    taxRegime: 'nta2025',
    payeState: { code: 'LA', name: 'Lagos' },
    taxableIncome: '1250000.00',
    basicPay: '500000.00',
    housingPay: '375000.00',
    transportPay: '250000.00',
    otherAllowances: '50000.00',
    reimbursements: '12500.50',
    grossPay: '1300000.00',
    taxWithheld: '190123.45',
    pension: '90000.00',
    nhf: '12500.00',
    nhis: '0.00',
    netPay: '1009877.05',
    employerPension: '112500.00',
    employerNhis: '0.00',
    employerCost: '1422500.00',
  },
  paymentDate: '2026-01-28',
  customContributions: [
    { name: 'Staff cooperative', employee: '10000.00', employer: '0.00' },
    { name: 'Group life', employee: '0.00', employer: '10000.00' },
  ],
  ytd: { year: 2026, paystubs: 1, gross: '1300000.00', tax: '190123.45', pension: '90000.00', net: '1009877.05' },
};

const amountOf = (lines: { label: string; amount: string }[], label: string) => lines.find((line) => line.label === label)?.amount;
const kobo = (naira: string) => columnToKobo(naira.replace(/[₦,]/g, ''));

describe('payslip formatting', () => {
  it.each([
    ['2026-01-31', '31 Jan 2026'],
    ['2025-12-01', '1 Dec 2025'],
    ['not a date', 'not a date'],
  ])('longDate(%s) = %s', (input, expected) => expect(longDate(input)).toBe(expected));

  it.each([
    ['0123456789', '•••• 6789'],
    ['01-2345 6789', '•••• 6789'],
    ['12', '•••• 12'],
    [null, '—'],
    ['', '—'],
  ])('maskedAccount(%s) = %s', (input, expected) => expect(maskedAccount(input)).toBe(expected));

  it.each([
    ['ACME-0007', '2026-01-31', 'payslip-ACME-0007-2026-01-31.pdf'],
    ['A/B "x"', '2026-01-31', 'payslip-A_B_x_-2026-01-31.pdf'],
    ['../etc', '2026-01-31', 'payslip-etc-2026-01-31.pdf'],
  ])('payslipFilename(%s, %s) = %s', (id, end, expected) => expect(payslipFilename(id, end)).toBe(expected));
});

describe('payslipLayout', () => {
  it('lists the earnings with the split, other taxable pay in exact kobo, and the totals', () => {
    const slip = payslipLayout(base);
    expect(slip.earnings.map((line) => [line.label, line.amount])).toEqual([
      ['Basic salary', '₦500,000.00'],
      ['Housing allowance', '₦375,000.00'],
      ['Transport allowance', '₦250,000.00'],
      ['Other taxable pay', '₦125,000.00'],
      ['Non-taxable allowances', '₦50,000.00'],
      ['Gross pay', '₦1,300,000.00'],
      ['Reimbursements (not taxed)', '₦12,500.50'],
      ['Total earnings', '₦1,312,500.50'],
    ]);
  });

  it('shows each pay item on its own line: paid earnings in gross, a benefit in kind after it, deductions with the others', () => {
    // The base paystub plus a ₦200,000 bonus, a ₦30,000 benefit in kind (taxed, not paid) and ₦2,500 of union dues:
    // gross 1,500,000; net = 1,009,877.05 + 200,000 − 2,500 (tax left as stored: the layout only shows figures).
    const slip = payslipLayout({
      ...base,
      paystub: { ...base.paystub, grossPay: '1500000.00', netPay: '1207377.05' },
      items: [
        { code: 'bonus', name: 'Bonus: Q4', treatment: 'earning', cash: true, amount: '200000.00' },
        { code: 'benefit_in_kind', name: 'Benefit in kind', treatment: 'earning', cash: false, amount: '30000.00' },
        { code: 'deduction', name: 'Union dues', treatment: 'deduction', cash: true, amount: '2500.00' },
      ],
    });
    expect(slip.earnings.map((line) => line.label)).toEqual([
      'Basic salary',
      'Housing allowance',
      'Transport allowance',
      'Other taxable pay',
      'Non-taxable allowances',
      'Bonus: Q4',
      'Gross pay',
      'Benefit in kind (taxed, not paid)',
      'Reimbursements (not taxed)',
      'Total earnings',
    ]);
    expect(amountOf(slip.deductions, 'Union dues')).toBe('₦2,500.00');
    const earned = kobo(amountOf(slip.earnings, 'Total earnings') ?? '');
    const deducted = kobo(amountOf(slip.deductions, 'Total deductions') ?? '');
    expect(earned - deducted).toBe(columnToKobo('1207377.05'));
  });

  it('names the law of the PAYE line and each custom deduction; the totals give the stored net pay', () => {
    const slip = payslipLayout(base);
    expect(slip.deductions.map((line) => line.label)).toEqual([
      'PAYE (Nigeria Tax Act 2025)',
      'Pension, employee',
      'NHF',
      'NHIS, employee',
      'Staff cooperative',
      'Total deductions',
    ]);
    const earned = kobo(amountOf(slip.earnings, 'Total earnings') ?? '');
    const deducted = kobo(amountOf(slip.deductions, 'Total deductions') ?? '');
    expect(earned - deducted).toBe(columnToKobo(base.paystub.netPay));
    expect(slip.netPay).toBe('₦1,009,877.05');
    expect(slip.employer.map((line) => [line.label, line.amount])).toEqual([
      ['Pension, employer', '₦112,500.00'],
      ['NHIS, employer', '₦0.00'],
      ['Group life', '₦10,000.00'],
      ['Total cost to employer', '₦1,422,500.00'],
    ]);
  });

  it('shows a year-end true-up as its own line after PAYE; the two add up to tax_withheld and the totals still give net pay', () => {
    // December of a July joiner (docs/payroll.md, "Year-end true-up"): 66,020 − 98,520 = −32,500.
    const paystub = { ...base.paystub, taxWithheld: '-32500.00', taxTrueUp: '-98520.00', netPay: '1232500.50' };
    const slip = payslipLayout({ ...base, paystub });
    expect(slip.deductions.slice(0, 3).map((line) => [line.label, line.amount])).toEqual([
      ['PAYE (Nigeria Tax Act 2025)', '₦66,020.00'],
      ['PAYE year-end adjustment', '−₦98,520.00'],
      ['Pension, employee', '₦90,000.00'],
    ]);
    const earned = kobo(amountOf(slip.earnings, 'Total earnings') ?? '');
    const deducted = kobo((amountOf(slip.deductions, 'Total deductions') ?? '').replace('−', '-'));
    expect(earned - deducted).toBe(columnToKobo(paystub.netPay));
  });

  it.each([
    ['pita', 'PAYE (PITA, as amended)', 'Personal Income Tax Act (as amended)'],
    ['nta2025', 'PAYE (Nigeria Tax Act 2025)', 'Nigeria Tax Act 2025'],
    ['none', 'PAYE (none)', 'No PAYE (tax regime set to none)'],
  ])('regime %s → %s', (regime, label, law) => {
    const slip = payslipLayout({ ...base, paystub: { ...base.paystub, taxRegime: regime } });
    expect(slip.deductions[0].label).toBe(label);
    expect(slip.period.find(([name]) => name === 'Tax law')?.[1]).toBe(law);
  });

  it('shows the employee with the last four digits only, and dashes for unknowns', () => {
    const slip = payslipLayout(base);
    expect(slip.employee).toEqual([
      ['Name', 'Adaeze Okafor'],
      ['Employee ID', 'ACME-0007'],
      ['Title', 'Accountant'],
      ['Department', '—'],
      ['Bank', 'Access Bank'],
      ['Account', '•••• 6789'],
    ]);
    expect(JSON.stringify(slip)).not.toContain('0123456789');
    expect(slip.company).toEqual({ name: 'Acme Nigeria Ltd', initials: 'AN', addressLines: ['12 Marina Road', 'Lagos Island, Lagos'] });
  });

  it.each([
    ['2026-01-28', '2026-01-29', 'paid', '28 Jan 2026', 'Paid'],
    [null, '2026-01-29', 'paid', '29 Jan 2026', 'Paid'],
    [null, null, 'unpaid', '—', 'Not paid yet'],
    ['2026-01-28', null, 'failed', '28 Jan 2026', 'Payment failed'],
  ])('payment date (run %s, paid %s, %s) → %s, %s', (paymentDate, paidOn, status, date, shown) => {
    const slip = payslipLayout({ ...base, paymentDate, paystub: { ...base.paystub, paidOn, status } });
    expect(slip.period.slice(0, 3)).toEqual([
      ['Pay period', '1 Jan 2026 – 31 Jan 2026'],
      ['Payment date', date],
      ['Status', shown],
    ]);
  });

  it.each([
    [{ code: 'LA', name: 'Lagos' }, 'Lagos (LA)'],
    [{ code: 'FC', name: 'Federal Capital Territory' }, 'Federal Capital Territory (FC)'],
    [null, '—'],
  ])('names the PAYE state the paystub recorded (%o → %s)', (payeState, shown) => {
    const slip = payslipLayout({ ...base, paystub: { ...base.paystub, payeState } });
    expect(slip.period.at(-1)).toEqual(['PAYE state', shown]);
  });

  it('shows a paystub without the salary split as one taxable line', () => {
    const slip = payslipLayout({ ...base, paystub: { ...base.paystub, basicPay: null, housingPay: null, transportPay: null } });
    expect(slip.earnings[0]).toEqual({ label: 'Taxable pay', amount: '₦1,250,000.00' });
    expect(slip.earnings.map((line) => line.label)).not.toContain('Basic salary');
  });

  it('states the year to date with its count', () => {
    const slip = payslipLayout({
      ...base,
      ytd: { year: 2026, paystubs: 3, gross: '3900000', tax: '570370.35', pension: '270000', net: '3031131.15' },
    });
    expect(slip.ytdTitle).toBe('Year to date, 2026 (3 payslips)');
    expect(slip.ytd.map((line) => [line.label, line.amount])).toEqual([
      ['Gross pay', '₦3,900,000.00'],
      ['PAYE', '₦570,370.35'],
      ['Pension, employee', '₦270,000.00'],
      ['Net pay', '₦3,031,131.15'],
    ]);
  });

  it('shows opening year-to-date figures on their own labelled lines, then the year with them', () => {
    const slip = payslipLayout({
      ...base,
      ytd: {
        year: 2026,
        paystubs: 1,
        gross: '500000',
        tax: '66020',
        pension: '36000',
        net: '397980',
        opening: { gross: '3000000.00', tax: '396120.00', pension: '216000.00' },
      },
    });
    expect(slip.ytd.map((line) => [line.label, line.amount, line.total ?? false])).toEqual([
      ['Gross pay', '₦500,000.00', false],
      ['PAYE', '₦66,020.00', false],
      ['Pension, employee', '₦36,000.00', false],
      ['Net pay', '₦397,980.00', true],
      ['Before this service (opening)', '₦3,000,000.00', false],
      ['Opening PAYE', '₦396,120.00', false],
      ['Opening pension, employee', '₦216,000.00', false],
      ['Gross pay with opening', '₦3,500,000.00', true],
      ['PAYE with opening', '₦462,140.00', false],
    ]);
    expect(slip.footer).toContain('Before this service (opening)');
  });

  it("shows each repayment among the deductions and each loan's balance after it in a section of its own", () => {
    const repay = (code: string, id: number, amount: string, balanceAfter: string) => ({
      code,
      name: `Repayment: Loan #${id}`,
      treatment: 'deduction',
      cash: true,
      amount,
      loan: { id, balanceAfter },
    });
    const slip = payslipLayout({
      ...base,
      items: [repay('loan_repayment', 7, '41000.00', '60000.00'), repay('advance_recovery', 9, '10000.00', '0.00')],
    });
    expect(slip.deductions.map((line) => line.label)).toContain('Repayment: Loan #7');
    expect(slip.loans).toEqual([
      { label: 'Loan #7, balance after', amount: '₦60,000.00' },
      { label: 'Advance #9, balance after', amount: '₦0.00' },
    ]);
    expect(payslipLayout(base).loans).toEqual([]);
  });

  it('shortens a long custom contribution name so it keeps to one line', () => {
    const name = 'A very long custom contribution name that would not fit';
    const slip = payslipLayout({ ...base, customContributions: [{ name, employee: '1.00', employer: '0.00' }] });
    const label = slip.deductions[4].label;
    expect(label.length).toBeLessThanOrEqual(34);
    expect(label.endsWith('…')).toBe(true);
  });
});
