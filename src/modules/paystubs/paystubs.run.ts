// The one code path that turns resolved items into a run's paystubs, shared by P2 and by runs
// computed from salaries (src/modules/payroll-runs): in the caller's transaction, under the
// company's run lock, load what the planner needs, plan (paystubs.planner.ts), write
// (paystubs.writer.ts). A (user, period) the database refuses at write time fails as a duplicate.
import crypto from 'node:crypto';
import type { Tx } from '../../db/client.js';
import { notFound } from '../../platform/errors.js';
import { columnToKobo } from '../../tax-engine/money.js';
import { paystubsOpeningRepo } from './paystubs.opening.repo.js';
import {
  DUPLICATE,
  type FailedItem,
  type PlanContext,
  type PlanItem,
  type PlannedPaystub,
  type PlanPayItem,
  planPaystubRun,
} from './paystubs.planner.js';
import { paystubsRepo } from './paystubs.repo.js';
import { type WrittenPaystub, writePlannedPaystubs } from './paystubs.writer.js';
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
 * capped by each paystub's net pay: src/modules/loans); the run is then planned again with them.
 */
export type AddPlannedItems = (tx: Tx, planned: readonly PlannedPaystub[]) => Promise<ReadonlyMap<number, readonly PlanPayItem[]>>;

/** planPaystubRun, then (with `addItems`) again with the added items appended to their paystub's own. */
function planWithAdded(tx: Tx, addItems: AddPlannedItems | undefined) {
  return async (context: PlanContext, items: readonly PlanItem[]) => {
    const plan = planPaystubRun(context, items);
    const added = addItems ? await addItems(tx, plan.paystubs) : new Map<number, readonly PlanPayItem[]>();
    if (added.size === 0) return plan;
    return planPaystubRun(
      context,
      items.map((item) => {
        const extra = added.get(item.index);
        return extra ? { ...item, items: [...(item.items ?? []), ...extra] } : item;
      }),
    );
  };
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
  const yearToDate = engineSettings.taxMethod === 'cumulative' ? await loadYearToDate(tx, companyId, userIds, items) : undefined;
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
