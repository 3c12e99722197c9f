// The plan of a payroll run: which items become paystubs, with which figures, custom contribution
// records and one_time applications, and which fail. Pure: no database, no platform, no clock, so
// every decision of a run is a table test (paystubs.planner.test.ts).
//
// Contract of planPaystubRun(context, items):
// - `items` are already resolved: a user, a period and the three amounts in kobo. P2 builds them from
//   the request (paystubs.items.validation.ts); a run computed from salaries builds them from each employee's
//   base_salary / allowances (pro rata when they started inside the period), with the same shape.
//   `index` is the item's position in the request and `id` what to echo in its failure.
// - `context` is what the caller loaded in the run's transaction, under the company's run lock:
//   the settings, the company's payment frequency, the users the items name (absent = the item fails
//   "The selected id is invalid."), the active custom contributions with their targets, the one_time
//   applications already made to these users, and the (user, period) pairs that already have a
//   paystub. Optional (absent = the behaviour before the statutory amendments): the company's
//   `sector` and each user's `nhf_opt_in` (whether NHF is deducted), custom contributions'
//   `tax_deductible`, under tax_method cumulative the stored `yearToDate` rows (paystubs.ytd.rules.ts),
//   users' `is_expatriate` / `pension_exempt` (NHF and pension: nhfAppliesTo, pensionApplies) and
//   `stateHistory` (each paystub's PAYE state, paystubs.paye-state.rules.ts; absent = the current state).
// - Under tax_method cumulative each paystub's tax uses its user's year to date: stored paystubs of
//   the same calendar year ending on or before it, plus those planned earlier in this run. Items are
//   planned by start, which for one user's successive periods is period order.
// - Items are planned earliest pay_period_start first (then in request order), so a one_time
//   contribution lands on a user's first period; if that item fails, the user's next one gets it.
//   A second item for a (user, period) planned or existing fails as a duplicate. Each item fails on
//   its own (e.g. "Deductions exceed pay."); nothing fails the run.
// - The result: `paystubs` in planning order, each with its row (amounts as decimal strings, ready
//   for the batch INSERT), the engine's figures in kobo (for totals: `runTotals`), its custom
//   contribution records (the writer adds the paystub id) and the one_time contributions it uses;
//   `failed` in planning order. The caller writes, reports in request order, and owns anything the
//   database still refuses (a (user, period) written concurrently by another path).
import { nhfAppliesTo, pensionApplies } from '../../tax-engine/amendments.js';
import { YtdLedger } from '../../tax-engine/cumulative.js';
import { computePaystub, prepareCustom, prepareRun } from '../../tax-engine/engine.js';
import { type EngineSettings, type PaystubFigures, PERIODS_PER_YEAR, type PreparedCustom } from '../../tax-engine/engine.types.js';
import { type Kobo, koboToString, toKobo } from '../../tax-engine/money.js';
import type { EngineItem, PayItemType } from '../../tax-engine/pay-items.js';
import { historyByUser, payeStateFor, type StateHistoryRow } from './paystubs.paye-state.rules.js';
import { type PaystubSnapshot, paystubSnapshot, type SnapshotUser, salarySplit } from './paystubs.snapshot.rules.js';
import { isYearEndPaystub } from './paystubs.true-up.rules.js';
import { type PlanYtdRow, ytdEntry } from './paystubs.ytd.rules.js';

export const UNKNOWN_USER = 'The selected id is invalid.';
export const DUPLICATE = 'A paystub for this user and pay period already exists.';

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

interface CustomPlan {
  rule: PreparedCustom;
  oneTime: boolean;
  everyone: boolean;
  userTypeIds: Set<number>;
  userIds: Set<number>;
}

function planCustoms(rows: readonly PlanCustom[]): CustomPlan[] {
  return rows.map((row) => {
    const userTypeIds = new Set(row.target_user_type_ids ?? []);
    const userIds = new Set(row.target_user_ids ?? []);
    return {
      rule: prepareCustom({
        id: row.id,
        name: row.name,
        type: row.type,
        applyTo: row.apply_to,
        employeeValue: row.employee_value,
        employerValue: row.employer_value,
        taxDeductible: row.tax_deductible ?? false,
      }),
      oneTime: row.frequency === 'one_time',
      everyone: userTypeIds.size === 0 && userIds.size === 0,
      userTypeIds,
      userIds,
    };
  });
}

/** One (user, period): the unique key of paystubs. */
export const periodKey = (userId: number, start: string, end: string) => `${userId}|${start}|${end}`;
const k = koboToString;

export function planPaystubRun(context: PlanContext, items: readonly PlanItem[]): PaystubPlan {
  const run = prepareRun(context.settings);
  const customs = planCustoms(context.customs);
  const applied = new Set(context.applied.map((row) => `${row.custom_contribution_id}|${row.user_id}`));
  const usersById = new Map(context.users.map((user) => [user.id, user]));
  const taken = new Set(context.existing.map((row) => periodKey(row.user_id, row.pay_period_start, row.pay_period_end)));
  const companyPeriods = PERIODS_PER_YEAR[context.companyPaymentFrequency.toLowerCase()] ?? 12;
  const split = salarySplit(context.settings);
  const ledger = run.taxMethod === 'cumulative' || context.yearEndTrueUp ? new YtdLedger((context.yearToDate ?? []).map(ytdEntry)) : null;
  const histories = historyByUser(context.stateHistory);

  const ordered = [...items].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.index - b.index));
  const paystubs: PlannedPaystub[] = [];
  const failed: FailedItem[] = [];
  for (const item of ordered) {
    const user = usersById.get(item.userId);
    if (!user) {
      failed.push({ index: item.index, id: item.rawId, errors: { id: [UNKNOWN_USER] } });
      continue;
    }
    const itemKey = periodKey(item.userId, item.start, item.end);
    if (!item.offCycle && taken.has(itemKey)) {
      failed.push({ index: item.index, id: item.rawId, errors: { pay_period_start: [DUPLICATE] } });
      continue;
    }
    const applicable: PreparedCustom[] = [];
    const oneTime: number[] = [];
    for (const plan of customs) {
      if (!plan.everyone && !plan.userIds.has(user.id) && !(user.user_type_id !== null && plan.userTypeIds.has(user.user_type_id)))
        continue;
      if (plan.oneTime) {
        if (applied.has(`${plan.rule.id}|${user.id}`)) continue;
        oneTime.push(plan.rule.id);
      }
      applicable.push(plan.rule);
    }
    const periodsPerYear = (user.payment_frequency && PERIODS_PER_YEAR[user.payment_frequency.toLowerCase()]) || companyPeriods;
    const engineItems = (item.items ?? []).map(toEngineItem);
    const result = computePaystub(run, {
      payPeriodEnd: item.end,
      taxableIncome: item.taxableIncome,
      reimbursements: item.reimbursements,
      otherAllowances: item.otherAllowances,
      periodsPerYear,
      annualRentPaid: toKobo(user.annual_rent_paid),
      lifeAssurancePremium: toKobo(user.life_assurance_premium),
      customs: applicable,
      nhfApplies: nhfAppliesTo(
        { sector: context.sector, nhfOptIn: user.nhf_opt_in, isExpatriate: user.is_expatriate },
        // An off-cycle paystub pays no salary: the employee's salary per period is their pay.
        {
          periodPay: item.offCycle ? (item.marginTaxableIncome ?? 0n) : item.taxableIncome + item.otherAllowances,
          periodsPerYear,
          payPeriodEnd: item.end,
        },
      ),
      pensionApplies: pensionApplies(user.pension_exempt),
      ytd: ledger?.before(user.id, item.end),
      items: engineItems,
      lossOfOfficePaidBefore: context.lossOfOfficePaid?.get(user.id) ?? 0n,
      marginBase: item.offCycle ? { taxableIncome: item.marginTaxableIncome ?? 0n } : null,
      yearEndTrueUp: context.yearEndTrueUp === true && isYearEndPaystub(item, periodsPerYear, user.exit_date),
    });
    if (!result.ok) {
      failed.push({ index: item.index, id: item.rawId, errors: result.errors });
      continue;
    }
    if (!item.offCycle) taken.add(itemKey); // a second item for the same user and period in this run fails
    for (const id of oneTime) applied.add(`${id}|${user.id}`);
    const f = result.figures;
    ledger?.add({
      userId: user.id,
      payPeriodEnd: item.end,
      taxableIncome: item.taxableIncome + f.taxableItems,
      deductions: f.taxDeductions,
      taxWithheld: f.taxWithheld,
    });
    paystubs.push({
      item,
      oneTime,
      figures: f,
      paystub: {
        userId: user.id,
        start: item.start,
        end: item.end,
        taxableIncome: k(item.taxableIncome),
        reimbursements: k(f.reimbursements),
        otherAllowances: k(item.otherAllowances),
        grossPay: k(f.grossPay),
        netPay: k(f.netPay),
        taxWithheld: k(f.taxWithheld),
        pension: k(f.pension),
        nhf: k(f.nhf),
        nhis: k(f.nhis),
        otherDeductions: k(f.otherDeductions),
        employerPension: k(f.employerPension),
        nhisEmployer: k(f.nhisEmployer),
        employerCost: k(f.employerCost),
        regime: f.regime,
        taxDeductions: f.taxDeductions.toString(),
        payeState: payeStateFor(histories.get(user.id), Number(item.end.slice(0, 4)), user.state_of_residence ?? null),
        taxableItems: k(f.taxableItems),
        irregularGross: k(f.irregularGross),
        nsitfItems: k(nsitfBase(engineItems)),
        offCycle: item.offCycle === true,
        taxTrueUp: k(f.taxTrueUp),
        items: (item.items ?? []).map((entry, position) => itemRow(entry, position, f.items[position].taxableAmount)),
        ...paystubSnapshot(user, item.taxableIncome, split),
      },
      records: f.customs.map((custom) => ({
        customContributionId: custom.id,
        userId: user.id,
        name: custom.name,
        employee: k(custom.employee),
        employer: k(custom.employer),
        taxDeductible: applicable.some((rule) => rule.id === custom.id && rule.taxDeductible === true),
      })),
    });
  }
  return { paystubs, failed };
}

function toEngineItem(entry: PlanPayItem): EngineItem {
  const { type } = entry;
  return {
    code: type.code,
    treatment: type.treatment,
    amount: entry.amount,
    taxable: type.taxable,
    pensionable: type.pensionable,
    nhfBase: type.nhfBase,
    nsitfBase: type.nsitfBase,
    regular: type.regular,
    cash: type.cash,
  };
}

/** Earnings in the NSITF base (a deduction is never in it). */
function nsitfBase(items: readonly EngineItem[]): Kobo {
  let sum = 0n;
  for (const item of items) if (item.treatment === 'earning' && item.nsitfBase && item.cash) sum += item.amount;
  return sum;
}

function itemRow(entry: PlanPayItem, position: number, taxableAmount: Kobo): NewPaystubItem {
  const { type } = entry;
  return {
    position,
    code: type.code,
    name: type.name,
    treatment: type.treatment,
    amount: k(entry.amount),
    taxableAmount: k(taxableAmount),
    taxable: type.taxable,
    pensionable: type.pensionable,
    nhfBase: type.nhfBase,
    nsitfBase: type.nsitfBase,
    regular: type.regular,
    cash: type.cash,
    description: entry.description,
    originPeriod: entry.originPeriod,
    ...(entry.loan ? { loanId: entry.loan.id, loanInterest: k(entry.loan.interest), loanBalanceAfter: k(entry.loan.balanceAfter) } : {}),
  };
}
