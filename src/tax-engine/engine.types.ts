// The engine's inputs and outputs (docs/payroll.md, "The engine"): settings, custom contribution
// rules, one paystub's input and its figures. engine.ts computes; these only describe.

import type { YtdState } from './cumulative.js';
import type { ItemFigure } from './items.js';
import type { Kobo } from './money.js';
import type { EngineItem } from './pay-items.js';
import type { TaxLawId } from './statutory.js';

export type TaxRegimeSetting = 'auto' | 'pita' | 'nta2025' | 'none';
export type AppliedRegime = TaxLawId | 'none';
/** `annualised`: each period's tax is the annual tax ÷ N; `cumulative`: from the year to date (cumulative.ts). */
export type TaxMethod = 'annualised' | 'cumulative';

/** The company's contribution settings, parsed (the API keeps them as strings). */
export interface EngineSettings {
  taxRegime: TaxRegimeSetting;
  basicPercentage: string;
  housingPercentage: string;
  transportPercentage: string;
  pensionEnabled: boolean;
  employeePensionRate: string;
  employerPensionRate: string;
  nhfEnabled: boolean;
  nhfRate: string;
  nhisEnabled: boolean;
  nhisEmployeeRate: string;
  nhisEmployerRate: string;
  /** Absent = `annualised`. */
  taxMethod?: TaxMethod;
}

export const DEFAULT_SETTINGS: EngineSettings = {
  taxRegime: 'auto',
  basicPercentage: '40',
  housingPercentage: '30',
  transportPercentage: '20',
  pensionEnabled: true,
  employeePensionRate: '8',
  employerPensionRate: '10',
  nhfEnabled: true,
  nhfRate: '2.5',
  nhisEnabled: false,
  nhisEmployeeRate: '5',
  nhisEmployerRate: '10',
  taxMethod: 'annualised',
};

/** A custom contribution as the engine needs it. A null value = that party is not responsible. */
export interface CustomContributionRule {
  id: number;
  name: string;
  type: 'amount' | 'percentage';
  applyTo: 'gross_pay' | 'net_pay';
  employeeValue: string | null;
  employerValue: string | null;
  /** The employee part reduces taxable income (voluntary pension): only on `gross_pay` with an employee part. */
  taxDeductible?: boolean;
  /** Applies once (`one_time`): a deductible part is then deducted once, not × N. */
  oneOff?: boolean;
}

export interface PreparedCustom {
  id: number;
  name: string;
  percentage: boolean;
  onGross: boolean;
  /** Kobo (amount) or rate units (percentage); null = not responsible. */
  employee: bigint | null;
  employer: bigint | null;
  taxDeductible?: boolean;
  oneOff?: boolean;
}

export interface PaystubInput {
  payPeriodEnd: string;
  taxableIncome: Kobo;
  reimbursements: Kobo;
  otherAllowances: Kobo;
  periodsPerYear: number;
  annualRentPaid?: Kobo | null;
  lifeAssurancePremium?: Kobo | null;
  /** The custom contributions that apply to this paystub, in order. */
  customs?: readonly PreparedCustom[];
  /** Whether NHF (step 4) is deducted from this employee (nhfApplies()); absent = true. */
  nhfApplies?: boolean;
  /** Whether employee and employer pension apply (false: exempt, pensionApplies()); absent = true. */
  pensionApplies?: boolean;
  /** Cumulative method: the year to date before this paystub; absent = none (a first paystub). */
  ytd?: YtdState | null;
  /** Pay items besides salary (pay-items.ts), positive amounts. */
  items?: readonly EngineItem[];
  /** Compensation for loss of office already paid in this employment (its exemption is per employment). */
  lossOfOfficePaidBefore?: Kobo;
  /**
   * Annualised tax of irregular items is taken at the margin of this regular pay per period instead
   * of the paystub's own (an off-cycle paystub pays no salary: the margin is the employee's salary).
   */
  marginBase?: { taxableIncome: Kobo } | null;
  /**
   * Annualised tax: this is the employee's last regular paystub of the year (or of their employment
   * in it): it withholds the year-end true-up too (true-up.ts), over `ytd`.
   */
  yearEndTrueUp?: boolean;
}

export interface CustomFigure {
  id: number;
  name: string;
  employee: Kobo;
  employer: Kobo;
}

export interface PaystubFigures {
  regime: AppliedRegime;
  /** True when GI ≤ 12 × the minimum wage (no tax, no minimum tax). */
  exempt: boolean;
  grossPay: Kobo;
  taxWithheld: Kobo;
  pension: Kobo;
  employerPension: Kobo;
  nhf: Kobo;
  nhis: Kobo;
  nhisEmployer: Kobo;
  otherDeductions: Kobo;
  netPay: Kobo;
  employerCost: Kobo;
  customs: CustomFigure[];
  /** This paystub's exact deductions for tax (D ÷ N) in DEDUCTION_UNITS_PER_KOBO: its share of D_ytd. */
  taxDeductions: bigint;
  /** The reimbursements field plus reimbursement items: added to net. */
  reimbursements: Kobo;
  /** Custom contributions' employee parts (otherDeductions = these + itemDeductions). */
  customDeductions: Kobo;
  /** Deduction items. */
  itemDeductions: Kobo;
  /** Cash earnings of irregular items (bonus, 13th month, …): gross − this is regular gross. */
  irregularGross: Kobo;
  /** Taxable amounts of the items (PAYE's pay beyond T): joins T in the year to date. */
  taxableItems: Kobo;
  /** The year-end true-up included in taxWithheld (negative: a refund); 0 on other paystubs. */
  taxTrueUp: Kobo;
  items: ItemFigure[];
}

export type PaystubResult = { ok: true; figures: PaystubFigures } | { ok: false; errors: Record<string, string[]> };

export const DEDUCTIONS_EXCEED_PAY = 'Deductions exceed pay.';
export const PERIOD_TOO_EARLY = 'Pay periods ending before 2021-01-01 are not supported.';

/** Pay periods in a year for each payment frequency. */
export const PERIODS_PER_YEAR: Record<string, number> = { weekly: 52, 'bi-weekly': 26, monthly: 12 };
