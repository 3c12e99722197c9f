// Loans and salary advances (docs/payroll.md, "Loans and salary advances").
import type { OperationDoc } from './types.js';

const LOAN = {
  id: 7,
  company_id: 1,
  user_id: 1042,
  kind: 'loan',
  principal: '300000.00',
  balance: '250000.00',
  instalment: '50000.00',
  start_period: '2026-03',
  interest_rate_annual: '12',
  status: 'active',
  skipped_periods: [],
  closed_balance: null,
  closed_at: null,
  created_at: '2026-02-20T09:30:00.000Z',
  updated_at: '2026-03-31T17:02:11.000Z',
};

const CLOSE =
  'Refused with 409 while a paystub not paid yet (unpaid, held, processing) carries a repayment of the loan, and for a loan that is not active.';

export const LOANS_OPERATIONS: Record<string, OperationDoc> = {
  'loans.store': {
    description:
      "Gives the user a loan or a salary advance. Each regular run from salaries from `start_period` deducts `min(instalment, balance)` plus simple monthly interest (loans only) as a `loan_repayment` or `advance_recovery` item, capped at one third of the paystub's net pay before loans; the balance falls when the paystub is paid. An advance (Labour Act s.4) is at most one month's wages (base_salary + allowances), recovered over at least 3 periods (instalment at most a third of the principal), bears no interest, and is refused while another advance is outstanding: each a 422 naming the rule.",
    body: { kind: 'loan', principal: '300000.00', instalment: '50000.00', start_period: '2026-03', interest_rate_annual: '12' },
    responses: { '201': { message: 'Loan created successfully.', loan: { ...LOAN, balance: '300000.00' } } },
  },
  'loans.user-index': {
    description: "The user's loans and advances, newest first, in the Laravel paginator family; `status` and `kind` filter.",
  },
  'loans.index': {
    description: "The company's loans and advances, newest first, in the Laravel paginator family; `user_id`, `status` and `kind` combine.",
  },
  'loans.show': { description: 'One loan or advance with its balance (what is still owed after the paid paystubs).' },
  'loans.skip': {
    description:
      'Skips one month (YYYY-MM): no repayment on that month’s paystub; the loan runs a month longer. Refused with 422 for a month already skipped, before the start period, or already repaid by a paystub that is not cancelled.',
    body: { period: '2026-05' },
    responses: { '200': { message: 'Period skipped successfully.', loan: { ...LOAN, skipped_periods: ['2026-05'] } } },
  },
  'loans.settle': {
    description: `Records an early repayment of the whole balance: the loan becomes paid_off with balance 0, and \`closed_balance\` keeps what was repaid (webhook \`loan.paid_off\`). ${CLOSE}`,
    body: {},
    responses: {
      '200': {
        message: 'Loan settled successfully.',
        loan: { ...LOAN, status: 'paid_off', balance: '0.00', closed_balance: '250000.00', closed_at: '2026-04-02T10:00:00.000Z' },
      },
    },
  },
  'loans.write-off': {
    description: `Writes the balance off: the loan becomes written_off with balance 0, and \`closed_balance\` keeps what was forgiven. ${CLOSE}`,
    body: {},
    responses: {
      '200': {
        message: 'Loan written off successfully.',
        loan: { ...LOAN, status: 'written_off', balance: '0.00', closed_balance: '250000.00', closed_at: '2026-04-02T10:00:00.000Z' },
      },
    },
  },
  'loans.report': {
    description:
      'Every loan and advance of the company (oldest first; `status` and `kind` filter) with its employee, what was lent, the principal repaid and the interest paid by paid paystubs, what an early settlement closed, what was written off and what is still owed, and the totals of each (exact decimal text summed to the kobo). For a loan repaid through paystubs, principal = repaid_principal + settled + written_off + balance. `format=csv` answers the same lines and a Total line as a CSV attachment.',
    responses: {
      '200': {
        message: 'Loans report retrieved successfully.',
        loans: 1,
        totals: {
          principal: '300000.00',
          repaid_principal: '50000.00',
          interest_paid: '3000.00',
          settled: '0.00',
          written_off: '0.00',
          balance: '250000.00',
        },
        data: [
          {
            loan_id: 7,
            user_id: 1042,
            employee_id: 'ACME-0042',
            name: 'Ada Obi',
            kind: 'loan',
            status: 'active',
            start_period: '2026-03',
            instalment: '50000.00',
            interest_rate_annual: '12',
            repayments: 1,
            last_repayment_period: '2026-03',
            principal: '300000.00',
            repaid_principal: '50000.00',
            interest_paid: '3000.00',
            settled: '0.00',
            written_off: '0.00',
            balance: '250000.00',
          },
        ],
      },
    },
  },
};
