// The plan of a payroll run: which items become paystubs, with which figures, custom contribution
// records and one_time applications, and which fail. Pure: no database, no platform, no clock, so
// every decision of a run is a table test (paystubs.planner.test.ts). The shapes are in
// paystubs.plan.types.ts; one paystub's pieces (its custom contributions, its rows) in
// paystubs.paystub.planner.ts.
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
import { computePaystub, type PreparedRun, prepareRun } from '../../tax-engine/engine.js';
import { type PaystubInput, PERIODS_PER_YEAR, type PreparedCustom } from '../../tax-engine/engine.types.js';
import { toKobo } from '../../tax-engine/money.js';
import type { EngineItem } from '../../tax-engine/pay-items.js';
import { historyByUser, payeStateFor } from './paystubs.paye-state.rules.js';
import { applicableCustoms, type CustomPlan, planCustoms, plannedPaystub, toEngineItem } from './paystubs.paystub.planner.js';
import type { FailedItem, PaystubPlan, PlanContext, PlanItem, PlannedPaystub, PlanUser } from './paystubs.plan.types.js';
import { type SalarySplit, salarySplit } from './paystubs.snapshot.rules.js';
import { isYearEndPaystub } from './paystubs.true-up.rules.js';
import { ytdEntry } from './paystubs.ytd.rules.js';

export const UNKNOWN_USER = 'The selected id is invalid.';
export const DUPLICATE = 'A paystub for this user and pay period already exists.';

/** One (user, period): the unique key of paystubs. */
export const periodKey = (userId: number, start: string, end: string) => `${userId}|${start}|${end}`;

/** What planning a run carries from item to item: the context prepared once, and what earlier items took. */
interface RunState {
  context: PlanContext;
  prepared: PreparedRun;
  customs: CustomPlan[];
  /** one_time contributions applied, before this run or by a paystub planned in it: `custom|user`. */
  applied: Set<string>;
  usersById: Map<number, PlanUser>;
  /** The (user, period) keys that have a paystub, stored or planned in this run. */
  taken: Set<string>;
  companyPeriods: number;
  split: SalarySplit;
  /** The years to date (cumulative tax, or the year-end true-up), each planned paystub added. */
  ledger: YtdLedger | null;
  histories: ReturnType<typeof historyByUser>;
}

function startRun(context: PlanContext): RunState {
  const prepared = prepareRun(context.settings);
  return {
    context,
    prepared,
    customs: planCustoms(context.customs),
    applied: new Set(context.applied.map((row) => `${row.custom_contribution_id}|${row.user_id}`)),
    usersById: new Map(context.users.map((user) => [user.id, user])),
    taken: new Set(context.existing.map((row) => periodKey(row.user_id, row.pay_period_start, row.pay_period_end))),
    companyPeriods: PERIODS_PER_YEAR[context.companyPaymentFrequency.toLowerCase()] ?? 12,
    split: salarySplit(context.settings),
    ledger: prepared.taxMethod === 'cumulative' || context.yearEndTrueUp ? new YtdLedger((context.yearToDate ?? []).map(ytdEntry)) : null,
    histories: historyByUser(context.stateHistory),
  };
}

export function planPaystubRun(context: PlanContext, items: readonly PlanItem[]): PaystubPlan {
  const run = startRun(context);
  const ordered = [...items].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.index - b.index));
  const paystubs: PlannedPaystub[] = [];
  const failed: FailedItem[] = [];
  for (const item of ordered) {
    const planned = planItem(run, item);
    if ('errors' in planned) failed.push(planned);
    else paystubs.push(planned);
  }
  return { paystubs, failed };
}

/** One item: its failure, or its paystub, whose period, one_time contributions and year to date the items after it see. */
function planItem(run: RunState, item: PlanItem): PlannedPaystub | FailedItem {
  const user = run.usersById.get(item.userId);
  if (!user) return { index: item.index, id: item.rawId, errors: { id: [UNKNOWN_USER] } };
  const itemKey = periodKey(item.userId, item.start, item.end);
  if (!item.offCycle && run.taken.has(itemKey)) return { index: item.index, id: item.rawId, errors: { pay_period_start: [DUPLICATE] } };
  const { applicable, oneTime } = applicableCustoms(run.customs, run.applied, user);
  const periodsPerYear = (user.payment_frequency && PERIODS_PER_YEAR[user.payment_frequency.toLowerCase()]) || run.companyPeriods;
  const engineItems = (item.items ?? []).map(toEngineItem);
  const result = computePaystub(run.prepared, paystubInput(run, item, user, { periodsPerYear, customs: applicable, items: engineItems }));
  if (!result.ok) return { index: item.index, id: item.rawId, errors: result.errors };
  if (!item.offCycle) run.taken.add(itemKey); // a second item for the same user and period in this run fails
  for (const id of oneTime) run.applied.add(`${id}|${user.id}`);
  const f = result.figures;
  run.ledger?.add({
    userId: user.id,
    payPeriodEnd: item.end,
    taxableIncome: item.taxableIncome + f.taxableItems,
    deductions: f.taxDeductions,
    taxWithheld: f.taxWithheld,
  });
  return plannedPaystub({
    item,
    user,
    figures: f,
    applicable,
    oneTime,
    engineItems,
    payeState: payeStateFor(run.histories.get(user.id), Number(item.end.slice(0, 4)), user.state_of_residence ?? null),
    split: run.split,
  });
}

/** The engine's input for one item of `user`, with the run's year to date and sector. */
function paystubInput(
  run: RunState,
  item: PlanItem,
  user: PlanUser,
  parts: { periodsPerYear: number; customs: PreparedCustom[]; items: EngineItem[] },
): PaystubInput {
  const { context } = run;
  const { periodsPerYear } = parts;
  return {
    payPeriodEnd: item.end,
    taxableIncome: item.taxableIncome,
    reimbursements: item.reimbursements,
    otherAllowances: item.otherAllowances,
    periodsPerYear,
    annualRentPaid: toKobo(user.annual_rent_paid),
    lifeAssurancePremium: toKobo(user.life_assurance_premium),
    customs: parts.customs,
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
    ytd: run.ledger?.before(user.id, item.end),
    items: parts.items,
    lossOfOfficePaidBefore: context.lossOfOfficePaid?.get(user.id) ?? 0n,
    marginBase: item.offCycle ? { taxableIncome: item.marginTaxableIncome ?? 0n } : null,
    yearEndTrueUp: context.yearEndTrueUp === true && isYearEndPaystub(item, periodsPerYear, user.exit_date),
  };
}
