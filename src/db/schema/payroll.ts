import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * One row per company from its creation (docs/payroll.md, "Settings (S1-S3)"). Values are kept as
 * the API's strings; the payroll service parses them into engine settings.
 */
export const contributionSettings = pgTable(
  'contribution_settings',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    taxRegime: text('tax_regime').notNull().default('auto'),
    basicPercentage: text('basic_percentage').notNull().default('40'),
    housingPercentage: text('housing_percentage').notNull().default('30'),
    transportPercentage: text('transport_percentage').notNull().default('20'),
    pensionEnabled: text('pension_enabled').notNull().default('true'),
    employeePensionRate: text('employee_pension_rate').notNull().default('8'),
    employerPensionRate: text('employer_pension_rate').notNull().default('10'),
    nhfEnabled: text('nhf_enabled').notNull().default('true'),
    nhfRate: text('nhf_rate').notNull().default('2.5'),
    nhisEnabled: text('nhis_enabled').notNull().default('false'),
    nhisEmployeeRate: text('nhis_employee_rate').notNull().default('5'),
    nhisEmployerRate: text('nhis_employer_rate').notNull().default('10'),
    // 0088: `annualised` or `cumulative` (docs/payroll.md, "Statutory amendments", amendment 4).
    taxMethod: text('tax_method').notNull().default('annualised'),
    // 0120: the base of the NSITF levy on the remittance schedules, `gross` or `basic_housing_transport`.
    nsitfBase: text('nsitf_base').notNull().default('gross'),
    // 0211: the year-end true-up under annualised tax (docs/payroll.md, "Year-end true-up").
    yearEndTrueUp: text('year_end_true_up').notNull().default('true'),
    // 0213: the loan repayments' cap, a fraction of net pay before loans (docs/payroll.md, "Loans and salary advances").
    maxDeductionRatio: text('max_deduction_ratio').notNull().default('1/3'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('contribution_settings_company_key').on(t.companyId)],
);

const money = (name: string) => numeric(name, { precision: 18, scale: 2 });

/** S6-S10. `name` is unique per company, case-insensitively. */
export const customContributions = pgTable(
  'custom_contributions',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    applyTo: text('apply_to').notNull(),
    employeeResponsibility: boolean('employee_responsibility').notNull().default(false),
    employerResponsibility: boolean('employer_responsibility').notNull().default(false),
    employeeValue: money('employee_value'),
    employerValue: money('employer_value'),
    frequency: text('frequency'),
    // 0088: the employee part reduces taxable income (only on gross pay with an employee part).
    taxDeductible: boolean('tax_deductible').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('custom_contributions_company_name_key').on(t.companyId, sql`lower(${t.name})`),
    index('custom_contributions_company_idx').on(t.companyId, t.id),
  ],
);

/** A target names a user type or a user; none means every user of the company. */
export const customContributionTargets = pgTable(
  'custom_contribution_targets',
  {
    id: serial('id').primaryKey(),
    customContributionId: integer('custom_contribution_id').notNull(),
    userTypeId: integer('user_type_id'),
    userId: integer('user_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('custom_contribution_targets_contribution_idx').on(t.customContributionId),
    index('custom_contribution_targets_user_type_idx').on(t.userTypeId),
    index('custom_contribution_targets_user_idx').on(t.userId),
  ],
);

export const paystubs = pgTable(
  'paystubs',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    userId: integer('user_id').notNull(),
    payPeriodStart: date('pay_period_start', { mode: 'string' }).notNull(),
    payPeriodEnd: date('pay_period_end', { mode: 'string' }).notNull(),
    taxableIncome: money('taxable_income').notNull(),
    reimbursements: money('reimbursements').notNull(),
    otherAllowances: money('other_allowances').notNull(),
    grossPay: money('gross_pay').notNull(),
    netPay: money('net_pay').notNull(),
    taxWithheld: money('tax_withheld').notNull(),
    pensionContribution: money('pension_contribution').notNull(),
    nhfContribution: money('nhf_contribution').notNull(),
    nhisContribution: money('nhis_contribution').notNull(),
    otherDeductions: money('other_deductions').notNull(),
    // The paystub's contribution record (one-to-one; its id is the paystub's id).
    employerPensionContribution: money('employer_pension_contribution').notNull(),
    nhisEmployerContribution: money('nhis_employer_contribution').notNull(),
    employerCost: money('employer_cost').notNull(),
    taxRegime: text('tax_regime').notNull(),
    status: text('status').notNull().default('unpaid'),
    transactionId: text('transaction_id').notNull(),
    // Payment (payroll runs, 0080): set when the paystub is paid, its current transfer, why it failed.
    paidAt: ts('paid_at'),
    paymentReference: text('payment_reference'),
    failureReason: text('failure_reason'),
    // 0088: D ÷ N exactly, in DEDUCTION_UNITS_PER_KOBO (the cumulative method's year to date).
    taxDeductions: numeric('tax_deductions', { precision: 40, scale: 0 }).notNull().default('0'),
    // 0088: the snapshot taken when the paystub was computed (docs/statutory-data.md).
    stateOfResidence: text('state_of_residence'),
    pfaCode: text('pfa_code'),
    rsaPin: text('rsa_pin'),
    nhfNumber: text('nhf_number'),
    basicPay: money('basic_pay'),
    housingPay: money('housing_pay'),
    transportPay: money('transport_pay'),
    // 0186: the payment destination pinned at approval, the employee as the payslip shows them then,
    // and why a paystub is held (docs/payroll-runs.md, "Payment destinations").
    destinationBankCode: text('destination_bank_code'),
    destinationBankName: text('destination_bank_name'),
    destinationAccountNumber: text('destination_account_number'),
    destinationAccountName: text('destination_account_name'),
    destinationPinnedAt: ts('destination_pinned_at'),
    employeeSnapshot: jsonb('employee_snapshot'),
    holdReason: text('hold_reason'),
    // 0203: the PAYE authority used: the state of residence on 1 January of the period's year.
    payeState: text('paye_state'),
    // 0200: pay items' taxable part, the irregular part of gross, their NSITF base; an off-cycle paystub.
    taxableItems: money('taxable_items').notNull().default('0'),
    irregularGross: money('irregular_gross').notNull().default('0'),
    nsitfItems: money('nsitf_items').notNull().default('0'),
    offCycle: boolean('off_cycle').notNull().default(false),
    // 0211: the year-end true-up included in tax_withheld (negative: a refund).
    taxTrueUp: money('tax_true_up').notNull().default('0'),
    // 0272: moved by every change to what P1's text of the paystub is made of (paystub_listed_texts).
    listedStamp: bigint('listed_stamp', { mode: 'number' }).notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // A cancelled run's paystubs no longer hold their (user, period).
    // (0200: off-cycle paystubs may overlap a regular one.)
    uniqueIndex('paystubs_user_period_key')
      .on(t.userId, t.payPeriodStart, t.payPeriodEnd)
      .where(sql`status <> 'cancelled' AND NOT off_cycle`),
    uniqueIndex('paystubs_payment_reference_key').on(t.paymentReference),
    index('paystubs_company_idx').on(t.companyId, t.id.desc()),
    index('paystubs_company_transaction_idx').on(t.companyId, t.transactionId, t.id.desc()),
    index('paystubs_company_status_idx').on(t.companyId, t.status, t.id.desc()),
    // 0110: a payslip's year to date (the user's paystubs of a calendar year up to a period end).
    index('paystubs_user_period_end_idx').on(t.userId, t.payPeriodEnd),
    // 0203: a month's remittances of runs without a payment_date (P2) read paystubs by paid_at.
    index('paystubs_company_paid_at_idx').on(t.companyId, t.paidAt).where(sql`paid_at IS NOT NULL`),
  ],
);

/**
 * A pay item on a paystub (0200; docs/payroll.md, "Pay items"): the flags of its type as they were
 * when the paystub was computed, and the part PAYE counted.
 */
export const paystubItems = pgTable(
  'paystub_items',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id').notNull(),
    paystubId: integer('paystub_id').notNull(),
    position: smallint('position').notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    treatment: text('treatment').$type<'earning' | 'deduction'>().notNull(),
    amount: money('amount').notNull(),
    taxableAmount: money('taxable_amount').notNull(),
    taxable: boolean('taxable').notNull(),
    pensionable: boolean('pensionable').notNull(),
    nhfBase: boolean('nhf_base').notNull(),
    nsitfBase: boolean('nsitf_base').notNull(),
    regular: boolean('regular').notNull(),
    cash: boolean('cash').notNull(),
    description: text('description'),
    originPeriod: text('origin_period'),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** The loan this deduction repays and the interest part of it (0212_loans.sql). */
    loanId: integer('loan_id'),
    loanInterest: money('loan_interest'),
  },
  (t) => [
    uniqueIndex('paystub_items_paystub_id_position_key').on(t.paystubId, t.position),
    index('paystub_items_company_code_idx').on(t.companyId, t.code),
    index('paystub_items_loan_idx').on(t.loanId).where(sql`loan_id IS NOT NULL`),
  ],
);

/**
 * A custom contribution as applied to one paystub (`contribution_id` = the paystub's id); kept, with
 * custom_contribution_id set to null, when the custom contribution is deleted.
 */
export const customContributionRecords = pgTable(
  'custom_contribution_records',
  {
    id: serial('id').primaryKey(),
    contributionId: integer('contribution_id').notNull(),
    customContributionId: integer('custom_contribution_id'),
    companyId: integer('company_id').notNull(),
    userId: integer('user_id').notNull(),
    name: text('name').notNull(),
    employeeContribution: money('employee_contribution').notNull(),
    employerContribution: money('employer_contribution').notNull(),
    // 0170: the rule's tax_deductible when the paystub was computed (the pension schedule's voluntary column).
    taxDeductible: boolean('tax_deductible').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('custom_contribution_records_contribution_idx').on(t.contributionId),
    index('custom_contribution_records_custom_idx').on(t.customContributionId),
  ],
);

/** A one_time custom contribution applied to a user: written with the paystub, so it applies once. */
export const customContributionApplications = pgTable(
  'custom_contribution_applications',
  {
    customContributionId: integer('custom_contribution_id').notNull(),
    userId: integer('user_id').notNull(),
    paystubId: integer('paystub_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customContributionId, t.userId] }),
    index('custom_contribution_applications_user_idx').on(t.userId),
    index('custom_contribution_applications_paystub_idx').on(t.paystubId),
  ],
);

/** P1's text of a paystub but its user, used while `stamp` is its listed_stamp (migrations/0272_paystub_listed_texts.sql). */
export const paystubListedTexts = pgTable('paystub_listed_texts', {
  paystubId: integer('paystub_id')
    .primaryKey()
    .references(() => paystubs.id, { onDelete: 'cascade' }),
  companyId: integer('company_id').notNull(),
  stamp: bigint('stamp', { mode: 'number' }).notNull(),
  formatKey: integer('format_key').notNull(),
  head: text('head').notNull(),
  contribution: text('contribution').notNull(),
});

/** Paystubs per company, moved by triggers on paystubs (migrations/0141_paystub_counts.sql): P1's unfiltered total. */
export const paystubCounts = pgTable('paystub_counts', {
  companyId: integer('company_id').primaryKey(),
  paystubs: integer('paystubs').notNull().default(0),
});

/**
 * Paystubs per run, in all and by status, moved by triggers on paystubs (migrations/0260_paystub_run_counts.sql,
 * 0265_paystub_run_status_counts.sql): P1's total by transaction_id and every run view's counts. A run's
 * numbers are the sums over its slots (a slot alone means nothing).
 */
export const paystubRunCounts = pgTable(
  'paystub_run_counts',
  {
    companyId: integer('company_id').notNull(),
    transactionId: text('transaction_id').notNull(),
    slot: bigint('slot', { mode: 'number' }).notNull(),
    paystubs: integer('paystubs').notNull().default(0),
    unpaid: integer('unpaid').notNull().default(0),
    held: integer('held').notNull().default(0),
    processing: integer('processing').notNull().default(0),
    paid: integer('paid').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    cancelled: integer('cancelled').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.transactionId, t.slot] })],
);
