// The one code path that turns resolved items into a run's paystubs, shared by P2 and by runs
// computed from salaries (src/modules/payroll-runs): in the caller's transaction, under the
// company's run lock, load what the planner needs, plan (paystubs.planner.ts), write
// (paystubs.writer.service.ts). A (user, period) the database refuses at write time fails as a duplicate.
import crypto from 'node:crypto';
import type { Tx } from '../../db/client.js';
import { notFound } from '../../platform/errors.js';
import { PERIODS_PER_YEAR } from '../../tax-engine/engine.types.js';
import { columnToKobo } from '../../tax-engine/money.js';
import { paystubsOpeningRepo } from './paystubs.opening.repo.js';
import type { FailedItem, PlanContext, PlanItem, PlannedPaystub, PlanPayItem, PlanUser } from './paystubs.plan.types.js';
import { DUPLICATE, planPaystubRun } from './paystubs.planner.js';
import { paystubsRepo } from './paystubs.repo.js';
import { addTotals, type RunTotals, runTotals } from './paystubs.totals.rules.js';
import { isYearEndPaystub } from './paystubs.true-up.rules.js';
import { type WrittenPaystub, writePlannedPaystubs } from './paystubs.writer.service.js';
import { settingsRepo } from './settings.repo.js';
import { toEngineSettings } from './settings.service.js';

const COMPANY_NOT_FOUND = 'Paystub or company not found.';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** `PR-20261122-4F7K2Q`: the run's id (P2's transaction_id): its date (UTC) and six random characters. */
export function newTransactionId(now = new Date()): string {
  const bytes = crypto.randomBytes(6);
  let suffix = '';
  for (const byte of bytes) suffix += ALPHABET[byte % ALPHABET.length];
  return `PR-${now.toISOString().slice(0, 10).replace(/-/g, '')}-${suffix}`;
}

export async function lockCompanyRuns(tx: Tx, companyId: number): Promise<void> {
  // One run at a time per company: duplicate checks and one_time applications stay exact.
  // (Re-entrant: taking it again in the same transaction is free.)
  await paystubsRepo.lockCompanyRuns(tx, companyId);
}

/**
 * Cumulative tax: the items' users' stored paystubs from January 1 of the earliest item's year to the
 * latest item's end, in one query (the planner keeps, per item, its own year's up to its end).
 */
async function loadYearToDate(tx: Tx, companyId: number, userIds: number[], items: readonly PlanItem[]) {
  if (items.length === 0) return [];
  let first = items[0].end;
  let last = items[0].end;
  for (const item of items) {
    if (item.end < first) first = item.end;
    if (item.end > last) last = item.end;
  }
  const stored = await paystubsRepo.yearToDate(tx, companyId, userIds, `${first.slice(0, 4)}-01-01`, last);
  return [...(await loadOpenings(tx, companyId, userIds, first, last)), ...stored];
}

/**
 * Opening year-to-date (docs/payroll.md, "Opening year-to-date"): each user's figures from before
 * this service, counted as an earlier period of its year (dated 1 January, so first in the ledger).
 */
function loadOpenings(tx: Tx, companyId: number, userIds: number[], firstEnd: string, lastEnd: string) {
  return paystubsOpeningRepo.openings(tx, companyId, userIds, Number(firstEnd.slice(0, 4)), Number(lastEnd.slice(0, 4)));
}

/**
 * Items a run adds once its paystubs are planned, by the planned item's `index` (loan repayments,
 * capped by each paystub's net pay: src/modules/loans); the users given items are then planned again.
 */
export type AddPlannedItems = (tx: Tx, planned: readonly PlannedPaystub[]) => Promise<ReadonlyMap<number, readonly PlanPayItem[]>>;

/**
 * planPaystubRun, then (with `addItems`) again for the users who were given items, with those items
 * appended to their paystub's own. Only those users are planned again: everything a planned item
 * carries to the items after it (the period taken, one_time contributions applied, the year to date,
 * the state history) is the same user's, so another user's paystub cannot change, and a run of
 * 10,000 with 2,000 loans plans 12,000 paystubs instead of 20,000.
 */
function planWithAdded(tx: Tx, addItems: AddPlannedItems | undefined) {
  return async (context: PlanContext, items: readonly PlanItem[]) => {
    const plan = planPaystubRun(context, items);
    const added = addItems ? await addItems(tx, plan.paystubs) : new Map<number, readonly PlanPayItem[]>();
    if (added.size === 0) return plan;
    const again = new Set(items.filter((item) => added.has(item.index)).map((item) => item.userId));
    const replanned = planPaystubRun(
      context,
      items
        .filter((item) => again.has(item.userId))
        .map((item) => {
          const extra = added.get(item.index);
          return extra ? { ...item, items: [...(item.items ?? []), ...extra] } : item;
        }),
    );
    // Planning order, as planPaystubRun answers it: by period start, then the item's index.
    const byIndex = new Map(items.map((item) => [item.index, item]));
    const order = (a: number, b: number) => {
      const [x, y] = [byIndex.get(a) as PlanItem, byIndex.get(b) as PlanItem];
      return x.start < y.start ? -1 : x.start > y.start ? 1 : x.index - y.index;
    };
    const kept = (index: number) => !again.has((byIndex.get(index) as PlanItem).userId);
    return {
      paystubs: [...plan.paystubs.filter((p) => kept(p.item.index)), ...replanned.paystubs].sort((a, b) =>
        order(a.item.index, b.item.index),
      ),
      failed: [...plan.failed.filter((f) => kept(f.index)), ...replanned.failed].sort((a, b) => order(a.index, b.index)),
    };
  };
}

/**
 * Annualised tax with the year-end true-up on (docs/payroll.md, "Year-end true-up"): the users with
 * an item that is their last regular paystub of the year, and their items, whose year to date the
 * run loads (the same one query as under cumulative). Everyone else's paystub needs none.
 */
function trueUpLoad(on: boolean, company: { payment_frequency: string }, users: readonly PlanUser[], items: readonly PlanItem[]) {
  if (!on) return { on, userIds: [] as number[], items: [] as PlanItem[] };
  const companyPeriods = PERIODS_PER_YEAR[company.payment_frequency.toLowerCase()] ?? 12;
  const byId = new Map(users.map((user) => [user.id, user]));
  const ids = new Set<number>();
  for (const item of items) {
    const user = byId.get(item.userId);
    if (!user) continue;
    const periods = (user.payment_frequency && PERIODS_PER_YEAR[user.payment_frequency.toLowerCase()]) || companyPeriods;
    if (isYearEndPaystub(item, periods, user.exit_date)) ids.add(user.id);
  }
  return { on, userIds: [...ids], items: items.filter((item) => ids.has(item.userId)) };
}

/** `failed` in planning order (the caller sorts for its answer); `addItems`: see AddPlannedItems. */
export async function planAndWriteRun(
  tx: Tx,
  companyId: number,
  transactionId: string,
  items: readonly PlanItem[],
  addItems?: AddPlannedItems,
): Promise<{ written: WrittenPaystub[]; failed: FailedItem[] }> {
  await lockCompanyRuns(tx, companyId);
  const userIds = [...new Set(items.map((item) => item.userId))];
  // One connection per transaction: these run one after the other, never concurrently.
  const company = await paystubsRepo.context(tx, companyId);
  const settings = await settingsRepo.find(tx, companyId);
  const users = await paystubsRepo.runUsers(tx, companyId, userIds);
  const customs = await paystubsRepo.activeCustoms(tx, companyId);
  const existing = await paystubsRepo.existing(
    tx,
    items.map((item) => ({ userId: item.userId, start: item.start, end: item.end })),
  );
  if (!company || !settings) throw notFound(COMPANY_NOT_FOUND);
  const oneTimeIds = customs.filter((custom) => custom.frequency === 'one_time').map((custom) => custom.id);
  const applied = await paystubsRepo.applied(tx, oneTimeIds, userIds);
  const stateHistory = await paystubsRepo.stateHistory(tx, companyId, userIds);

  const engineSettings = toEngineSettings(settings);
  const trueUp = trueUpLoad(settings.yearEndTrueUp === 'true' && engineSettings.taxMethod === 'annualised', company, users, items);
  const yearToDate =
    engineSettings.taxMethod === 'cumulative'
      ? await loadYearToDate(tx, companyId, userIds, items)
      : trueUp.userIds.length > 0
        ? await loadYearToDate(tx, companyId, trueUp.userIds, trueUp.items)
        : undefined;
  const lossOfOffice = items.some((item) => item.items?.some((entry) => entry.type.code === 'loss_of_office'))
    ? await paystubsRepo.lossOfOfficePaid(tx, companyId, userIds)
    : [];

  const plan = await planWithAdded(tx, addItems)(
    {
      settings: engineSettings,
      companyPaymentFrequency: company.payment_frequency,
      sector: company.sector,
      users,
      customs,
      applied,
      existing,
      yearToDate,
      yearEndTrueUp: trueUp.on,
      stateHistory,
      lossOfOfficePaid: new Map(lossOfOffice.map((row) => [row.user_id, columnToKobo(row.paid)])),
    },
    items,
  );
  const failed = [...plan.failed];
  const { written, refused } = await writePlannedPaystubs(tx, companyId, transactionId, plan.paystubs);
  for (const { item } of refused) failed.push({ index: item.index, id: item.rawId, errors: { pay_period_start: [DUPLICATE] } });
  return { written, failed };
}

/** Employees planned and written at a time by planAndWriteRunInParts. */
export const RUN_PART_EMPLOYEES = 2_000;

/**
 * planAndWriteRun a part of the employees at a time, in the caller's transaction, keeping only the
 * run's totals and its failures: what a run creation needs, in memory bounded by the part instead of
 * by the run (all of a run's paystubs planned at once held 577-602 MB at 100,000 employees:
 * docs/benchmarks.md, "Paystack at scale"). The same run as one part: everything one paystub's plan reads (its
 * period, year to date, one-time items applied, state history, loss of office already paid, loan
 * repayments) is its own employee's, and an employee's items are never split between parts. For the
 * runs that use it (one period for every item) the parts go in planning order, the items' index, so
 * paystubs are written in the same order as in one part. `failed`: in planning order.
 */
export async function planAndWriteRunInParts(
  tx: Tx,
  companyId: number,
  transactionId: string,
  items: readonly PlanItem[],
  addItems?: AddPlannedItems,
  partEmployees = RUN_PART_EMPLOYEES,
): Promise<{ totals: RunTotals; failed: FailedItem[] }> {
  let totals = runTotals([]);
  const failed: FailedItem[] = [];
  for (const part of partsByEmployee(items, partEmployees)) {
    const result = await planAndWriteRun(tx, companyId, transactionId, part, addItems);
    totals = addTotals(totals, runTotals(result.written.map((w) => w.planned)));
    failed.push(...result.failed);
  }
  return { totals, failed };
}

/** Consecutive parts of `items` of at most `size` employees each, an employee's items all in one part. */
function partsByEmployee(items: readonly PlanItem[], size: number): PlanItem[][] {
  const byEmployee = new Map<number, PlanItem[]>();
  for (const item of items) {
    const own = byEmployee.get(item.userId);
    if (own) own.push(item);
    else byEmployee.set(item.userId, [item]);
  }
  const employees = [...byEmployee.values()];
  const parts: PlanItem[][] = [];
  for (let i = 0; i < employees.length; i += size) {
    parts.push(
      employees
        .slice(i, i + size)
        .flat()
        .sort((a, b) => a.index - b.index),
    );
  }
  return parts;
}
