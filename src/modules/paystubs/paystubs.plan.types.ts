// The shapes of a run's plan (paystubs.planner.ts): the resolved items in, what the caller loaded
// in the run's transaction (PlanContext), and the planned paystubs, rows and failures out, which the
// writer (paystubs.writer.service.ts) and the repo insert. Types only.
import type { EngineSettings, PaystubFigures } from '../../tax-engine/engine.types.js';
import type { Kobo } from '../../tax-engine/money.js';
import type { PayItemType } from '../../tax-engine/pay-items.js';
import type { StateHistoryRow } from './paystubs.paye-state.rules.js';
import type { PaystubSnapshot, SnapshotUser } from './paystubs.snapshot.rules.js';
import type { PlanYtdRow } from './paystubs.ytd.rules.js';

export interface PlanItem {
  index: number;
  /** What the caller sent as the item's id, echoed in its failure. */
  rawId: unknown;
  userId: number;
  start: string;
  end: string;
  taxableIncome: Kobo;
  reimbursements: Kobo;
  otherAllowances: Kobo;
  /** Pay items besides salary, their types resolved (docs/payroll.md, "Pay items"). */
  items?: readonly PlanPayItem[];
  /**
   * An off-cycle paystub: pays only its items, may overlap a regular paystub of the same period, and
   * takes the margin of its irregular items at `marginTaxableIncome` (the employee's salary per period).
   */
  offCycle?: boolean;
  marginTaxableIncome?: Kobo;
}

/** One item on a paystub: its type (built-in or the company's) and what the request said. */
export interface PlanPayItem {
  type: PayItemType;
  amount: Kobo;
  description: string | null;
  originPeriod: string | null;
  /** A loan repayment: the loan it repays and the interest part of the amount (src/modules/loans). */
  loan?: { id: number; interest: Kobo; balanceAfter: Kobo };
}

/** A paystub item row to insert (the writer adds the paystub's id). */
export interface NewPaystubItem {
  position: number;
  code: string;
  name: string;
  treatment: string;
  amount: string;
  taxableAmount: string;
  taxable: boolean;
  pensionable: boolean;
  nhfBase: boolean;
  nsitfBase: boolean;
  regular: boolean;
  cash: boolean;
  description: string | null;
  originPeriod: string | null;
  loanId?: number | null;
  loanInterest?: string | null;
  /** Not stored: the loan's balance once this paystub is paid, for the written paystub's JSON. */
  loanBalanceAfter?: string | null;
}

export interface FailedItem {
  index: number;
  id: unknown;
  errors: Record<string, string[]>;
}

/** A user an item may name: in the company and not deleted. Amounts are numeric text. */
export interface PlanUser extends SnapshotUser {
  id: number;
  user_type_id: number | null;
  payment_frequency: string | null;
  annual_rent_paid: string | null;
  life_assurance_premium: string | null;
  /** NHF in the private sector (absent: not wired yet, NHF applies as before the amendment). */
  nhf_opt_in?: boolean | null;
  /** No NHF for an expatriate (absent = false). */
  is_expatriate?: boolean | null;
  /** No pension, employee or employer (absent = false). */
  pension_exempt?: boolean | null;
  /** The last day of employment (ISO date): the paystub covering it carries the year-end true-up. */
  exit_date?: string | null;
}

/** An active custom contribution with its targets (none = everyone), in the order it applies. */
export interface PlanCustom {
  id: number;
  name: string;
  type: 'amount' | 'percentage';
  apply_to: 'gross_pay' | 'net_pay';
  employee_value: string | null;
  employer_value: string | null;
  /** Its employee part reduces taxable income (absent = false). */
  tax_deductible?: boolean;
  frequency: string | null;
  target_user_type_ids: number[] | null;
  target_user_ids: number[] | null;
}

export interface PlanContext {
  settings: EngineSettings;
  /** The company's payment_frequency: periods per year of a user without their own. */
  companyPaymentFrequency: string;
  users: readonly PlanUser[];
  customs: readonly PlanCustom[];
  /** one_time contributions already applied: (custom contribution, user). */
  applied: readonly { custom_contribution_id: number; user_id: number }[];
  /** (user, period) pairs that already have a paystub. */
  existing: readonly { user_id: number; pay_period_start: string; pay_period_end: string }[];
  /** The company's sector: NHF applies to every employee of a `public` one (absent = `private`). */
  sector?: 'private' | 'public';
  /**
   * tax_method cumulative: the items' users' stored paystubs (not cancelled) of this company ending in
   * the calendar years of the items, up to the latest item's end; amounts as numeric text,
   * `tax_deductions` in DEDUCTION_UNITS_PER_KOBO. Unused (may be absent) under `annualised`.
   */
  yearToDate?: readonly PlanYtdRow[];
  /** The items' users' state history, by user then (effective_from, id); absent = the current state. */
  stateHistory?: readonly StateHistoryRow[];
  /** Compensation for loss of office already paid to each user (its exemption is per employment). */
  lossOfOfficePaid?: ReadonlyMap<number, Kobo>;
  /**
   * Annualised tax with the year-end true-up on (paystubs.true-up.rules.ts): each user's last regular
   * paystub of the year withholds it, over `yearToDate` (loaded for those users). Absent = off.
   */
  yearEndTrueUp?: boolean;
}

/** A paystub row to insert (the company, run and status are the writer's), with its snapshot. */
export interface NewPaystub extends PaystubSnapshot {
  userId: number;
  start: string;
  end: string;
  taxableIncome: string;
  reimbursements: string;
  otherAllowances: string;
  grossPay: string;
  netPay: string;
  taxWithheld: string;
  pension: string;
  nhf: string;
  nhis: string;
  otherDeductions: string;
  employerPension: string;
  nhisEmployer: string;
  employerCost: string;
  regime: string;
  /** D ÷ N in DEDUCTION_UNITS_PER_KOBO (integer text): this paystub's share of a year to date. */
  taxDeductions: string;
  /** The PAYE authority's state: the user's state of residence on 1 January of the period's year. */
  payeState: string | null;
  taxableItems: string;
  irregularGross: string;
  /** Earnings of the items in the NSITF base. */
  nsitfItems: string;
  offCycle: boolean;
  /** The year-end true-up included in taxWithheld (negative: a refund). */
  taxTrueUp: string;
  items: NewPaystubItem[];
}

/** A custom contribution record; `contributionId` is the id of its paystub once written. */
export interface NewRecord {
  contributionId: number;
  customContributionId: number;
  userId: number;
  name: string;
  employee: string;
  employer: string;
  /** Snapshot of the rule's tax_deductible when the paystub was computed: a voluntary pension contribution. */
  taxDeductible: boolean;
}

export interface PlannedPaystub {
  item: PlanItem;
  paystub: NewPaystub;
  figures: PaystubFigures;
  records: Omit<NewRecord, 'contributionId'>[];
  /** The one_time contributions this paystub uses (one application row each). */
  oneTime: number[];
}

export interface PaystubPlan {
  paystubs: PlannedPaystub[];
  failed: FailedItem[];
}
