// Paystubs, payroll runs and payroll settings (docs/payroll.md, docs/payroll-runs.md, docs/compliance.md).
import type { OperationDoc } from './types.js';

const CONTRIBUTION = {
  name: 'Staff cooperative savings',
  type: 'amount',
  apply_to: 'gross_pay',
  responsibility: 'employee',
  employee_value: 5000,
  frequency: 'per_paystub',
  user_types: ['Full-time'],
  is_active: true,
  tax_deductible: false,
};

const SETTINGS_BODY = {
  required: true,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        description: 'Any of the settings, each as a string; unknown fields or bad values are 422',
        additionalProperties: { type: 'string' },
      },
    },
  },
};

const runAction = (what: string): OperationDoc => ({ description: what, body: {} });

const BUILT_IN_BONUS = {
  id: null,
  code: 'bonus',
  name: 'Bonus',
  treatment: 'earning',
  taxable: true,
  pensionable: false,
  nhf_base: false,
  nsitf_base: false,
  regular: false,
  cash: true,
  built_in: true,
  created_at: null,
};
const OWN_TYPE = {
  id: 7,
  code: 'hazard_allowance',
  name: 'Hazard allowance',
  treatment: 'earning',
  taxable: true,
  pensionable: true,
  nhf_base: false,
  nsitf_base: true,
  regular: true,
  cash: true,
  built_in: false,
  created_at: '2025-05-02T09:30:00.000000Z',
};

export const PAYROLL_OPERATIONS: Record<string, OperationDoc> = {
  'pay-item-types.read': {
    description:
      'The item types a paystub’s `items` may name: the built-in ones (law, the same for every company: `built_in` true, no id) in catalog order, then the company’s own by code. Each type’s flags say where its amounts count: PAYE, the pension, NHF and NSITF bases, regular or irregular pay, cash or not.',
    responses: {
      '200': { message: 'Pay item types retrieved successfully.', data: [BUILT_IN_BONUS, OWN_TYPE] },
    },
  },
  'pay-item-types.create': {
    description:
      'Adds a type of the company’s own. `code` is unique in the company and never a built-in code. Flags left out take the plain case: an earning is taxable cash, irregular, in no other base; a deduction is cash and in no base. A deduction may not be taxable, pensionable or in the NHF or NSITF base, and must be cash; a non-cash earning must be taxable. A company has at most 200 types of its own.',
    body: {
      code: 'hazard_allowance',
      name: 'Hazard allowance',
      treatment: 'earning',
      taxable: true,
      pensionable: true,
      nhf_base: false,
      nsitf_base: true,
      regular: true,
      cash: true,
    },
    responses: { '201': { message: 'Pay item type created successfully.', pay_item_type: OWN_TYPE } },
  },
  'paystubs.index': {
    description:
      'Paystubs of the target company, newest first, in the Laravel paginator family; filters (`user_id`, `transaction_id`, `status`) combine.',
  },
  'paystubs.store': {
    description:
      'Creates paystubs from given figures (1 to 1,000); each item succeeds or fails on its own, and the items that succeed form one draft run. `id` is the employee’s user id; amounts are naira for the period.',
    body: {
      paystubs: [
        {
          id: 1042,
          pay_period_start: '2025-05-01',
          pay_period_end: '2025-05-31',
          taxable_income: '425000.00',
          reimbursements: '15000.00',
          other_allowances: '0.00',
        },
      ],
    },
  },
  'paystubs.payslip': {
    description: 'The paystub’s payslip: one A4 PDF with earnings, statutory deductions, year-to-date figures and the payment destination.',
    responses: { '200': '%PDF-1.7 (binary)' },
  },
  'contribution-settings.index': { description: 'Contribution settings of the authenticated company and of every company below it.' },
  'contribution-settings.show': {
    description:
      'One company’s contribution settings: tax regime and method, pension, NHF, NHIS rates, NSITF base, the year-end true-up and `max_deduction_ratio` (the loan repayments’ cap, default `1/3`).',
  },
  'contribution-settings.update': {
    description:
      'Changes the given settings; every value is a string (`"true"`, `"8"`, `"1/3"`). An unknown field or a bad value is 422 with its message. `max_deduction_ratio` is the share of net pay before loans that loan repayments may take: a fraction `n/d` or a decimal with at most 4 places, greater than 0 and at most 1.',
    requestBody: SETTINGS_BODY,
    body: {
      pension_enabled: 'true',
      employee_pension_rate: '8',
      employer_pension_rate: '10',
      nhf_enabled: 'false',
      tax_method: 'annualised',
      max_deduction_ratio: '1/3',
    },
  },
  'contributions.company': {
    description: 'A company’s contribution records (what each paystub deducted or added), in pages of up to 1,000.',
  },
  'contributions.user': { description: 'One user’s contribution records (`company_id` for a user of a child company).' },
  'custom-contributions.index': { description: 'The company’s custom contributions with their targets (user types and people).' },
  'custom-contributions.show': { description: 'One custom contribution with its targets.' },
  'custom-contributions.store': {
    description:
      'Creates a custom contribution: a fixed amount or a percentage of gross or net pay, paid by the employee, the employer or both, on every paystub or once; targeted by user type and by e-mail.',
    body: CONTRIBUTION,
  },
  'custom-contributions.update': {
    description: 'Changes a custom contribution; `user_types` or `users` replace the targets. Records already on paystubs stay.',
    body: { employee_value: 7500, users: ['chiamaka.okafor@adebayo-logistics.ng'] },
  },
  'custom-contributions.destroy': { description: 'Deletes a custom contribution; records already on paystubs stay.' },
  'payroll-runs.store': {
    description:
      'Creates a draft run from the employees’ salaries for the period: every active employee by default, or those of `user_ids`; `items` override one employee’s figures. Employees who cannot be paid are listed in `skipped`.',
    body: {
      pay_period_start: '2025-05-01',
      pay_period_end: '2025-05-31',
      payment_date: '2025-05-28',
      created_by_email: 'tunde.adeyemi@adebayo-logistics.ng',
      items: [{ user_id: 1042, reimbursements: '15000.00' }],
    },
  },
  'payroll-runs.index': {
    description:
      'The company’s runs, newest first, in the Laravel paginator family; period filters are bounds, `status` one of the seven statuses.',
  },
  'payroll-runs.show': { description: 'One run with its totals and the counts of its paystubs by status.' },
  'payroll-runs.approve': {
    description:
      'Approves a draft run: the approver is an active admin of the company (or above it) who did not create the run. The payment destinations are fixed at approval.',
    body: { approver_email: 'ngozi.eze@adebayo-logistics.ng' },
  },
  'payroll-runs.pay': runAction(
    'Pays an approved run from the wallet: the net pay is debited once and the transfers go out in the background (202). Not enough money: 409 with `required`, `available` and `shortfall`. Send an Idempotency-Key.',
  ),
  'payroll-runs.retry': runAction('Sends a run’s failed paystubs again, funding only those (202).'),
  'payroll-runs.cancel': runAction('Cancels a draft or approved run; its paystubs become cancelled.'),
  'payroll-runs.payslips': {
    description: 'The run’s payslips as one ZIP (a PDF per paystub that is not cancelled), streamed.',
    responses: { '200': 'PK (binary ZIP)' },
  },
};
