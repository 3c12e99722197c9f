// One paystub of a run's plan (paystubs.planner.ts plans the run, item by item): which custom
// contributions apply to its employee, its pay items as the engine takes them, and, once the engine
// has computed it, the rows to insert: the paystub with its snapshot and PAYE state, its items, its
// custom contribution records. Pure, like the run planner.
import { prepareCustom } from '../../tax-engine/engine.js';
import type { PaystubFigures, PreparedCustom } from '../../tax-engine/engine.types.js';
import { type Kobo, koboToString } from '../../tax-engine/money.js';
import type { EngineItem } from '../../tax-engine/pay-items.js';
import type { NewPaystubItem, PlanCustom, PlanItem, PlannedPaystub, PlanPayItem, PlanUser } from './paystubs.plan.types.js';
import { paystubSnapshot, type SalarySplit } from './paystubs.snapshot.rules.js';

const k = koboToString;

export interface CustomPlan {
  rule: PreparedCustom;
  oneTime: boolean;
  everyone: boolean;
  userTypeIds: Set<number>;
  userIds: Set<number>;
}

export function planCustoms(rows: readonly PlanCustom[]): CustomPlan[] {
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

/**
 * The custom contributions that apply to `user`, in order: those for everyone, for the user or for
 * their user type; a one_time one only if not applied to them yet (`custom|user` in `applied`).
 */
export function applicableCustoms(
  customs: readonly CustomPlan[],
  applied: ReadonlySet<string>,
  user: PlanUser,
): { applicable: PreparedCustom[]; oneTime: number[] } {
  const applicable: PreparedCustom[] = [];
  const oneTime: number[] = [];
  for (const plan of customs) {
    if (!plan.everyone && !plan.userIds.has(user.id) && !(user.user_type_id !== null && plan.userTypeIds.has(user.user_type_id))) continue;
    if (plan.oneTime) {
      if (applied.has(`${plan.rule.id}|${user.id}`)) continue;
      oneTime.push(plan.rule.id);
    }
    applicable.push(plan.rule);
  }
  return { applicable, oneTime };
}

/** A paystub the engine computed, with what its rows need besides the figures. */
export interface ComputedPaystub {
  item: PlanItem;
  user: PlanUser;
  figures: PaystubFigures;
  /** The custom contributions it was computed with, and the one_time ones among them. */
  applicable: readonly PreparedCustom[];
  oneTime: number[];
  engineItems: readonly EngineItem[];
  /** The PAYE authority's state (paystubs.paye-state.rules.ts). */
  payeState: string | null;
  split: SalarySplit;
}

/** The planned paystub: its row (amounts as decimal strings, ready for the batch INSERT), figures and records. */
export function plannedPaystub(c: ComputedPaystub): PlannedPaystub {
  const { item, user, figures: f } = c;
  return {
    item,
    oneTime: c.oneTime,
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
      payeState: c.payeState,
      taxableItems: k(f.taxableItems),
      irregularGross: k(f.irregularGross),
      nsitfItems: k(nsitfBase(c.engineItems)),
      offCycle: item.offCycle === true,
      taxTrueUp: k(f.taxTrueUp),
      items: (item.items ?? []).map((entry, position) => itemRow(entry, position, f.items[position].taxableAmount)),
      ...paystubSnapshot(user, item.taxableIncome, c.split),
    },
    records: f.customs.map((custom) => ({
      customContributionId: custom.id,
      userId: user.id,
      name: custom.name,
      employee: k(custom.employee),
      employer: k(custom.employer),
      taxDeductible: c.applicable.some((rule) => rule.id === custom.id && rule.taxDeductible === true),
    })),
  };
}

export function toEngineItem(entry: PlanPayItem): EngineItem {
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
