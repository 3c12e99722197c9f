// P1/P2, S4/S5 and the console's payroll-run views. A P2 call is one payroll run: items are
// validated one by one (paystubs.items.validation.ts); then, in ONE transaction, planAndWriteRun
// (paystubs.run.service.ts) plans and writes them under the company's run lock, and the run's header
// (payroll_runs, a draft) is written beside them.
import { type Db, onDatabaseServer, type Tx } from '../../db/client.js';
import { notFound } from '../../platform/errors.js';
import { markIdempotentChange } from '../../platform/idempotency-claims.js';
import { laravelPage, laravelPageJson, pageOffset } from '../../platform/paginator.js';
import { type ContributionsPage, contributionsPage, type PageQuery, sqlPage } from './contributions.paging.validation.js';
import { codesOf, type ResolveItemTypes, resolveBuiltIns, resolveItems } from './paystubs.item-input.validation.js';
import { type ValidatedItem, validateItem } from './paystubs.items.validation.js';
import { createPaystubTexts } from './paystubs.list-text.service.js';
import type { FailedItem, PlanItem } from './paystubs.plan.types.js';
import { paystubsReadRepo } from './paystubs.read.repo.js';
import { type PaystubFilters, paystubsRepo } from './paystubs.repo.js';
import { newTransactionId, planAndWriteRun } from './paystubs.run.service.js';
import {
  serializeContribution,
  serializeContributionDetails,
  serializeEmbeddedUser,
  serializePaystub,
  serializeRecord,
} from './paystubs.serializer.js';
import type { WrittenPaystub } from './paystubs.writer.service.js';

export const PAYSTUBS_FORBIDDEN = "You do not have permission to access this company's paystubs.";
export const PAYSTUBS_NOT_FOUND = 'Paystub or company not found.';
export const USER_NOT_FOUND = 'User not found.';
const LISTED = 'Paystubs retrieved successfully';

export { newTransactionId } from './paystubs.run.service.js';

export interface PaystubListQuery {
  user_id?: number;
  transaction_id?: string;
  status?: string;
  page?: number;
  per_page?: number;
}

export type RecordRun = (tx: Tx, companyId: number, runId: string, written: readonly WrittenPaystub[]) => Promise<void>;

/**
 * `recordRun` writes the payroll run of a P2 call (the payroll-runs module's), in P2's transaction:
 * every P2 call is a run too, approved and paid like any other.
 */
export function createPaystubsService(deps: {
  db: Db;
  config: { publicUrl: string };
  recordRun: RecordRun;
  resolveItemTypes?: ResolveItemTypes;
}) {
  const { db, config, recordRun } = deps;
  const resolveItemTypes = deps.resolveItemTypes ?? resolveBuiltIns;
  const paystubTexts = createPaystubTexts();

  /** P1: Laravel's LengthAwarePaginator, newest first. */
  async function list(companyId: number, query: PaystubListQuery, rawQuery: Record<string, unknown>) {
    const { filters, page, perPage, offset } = listWindow(query);
    const { rows, total } = await paystubsReadRepo.page(db, companyId, filters, offset, perPage);
    const ids = rows.map((row) => row.id);
    const [users, records, items] = await Promise.all([
      paystubsReadRepo.usersOf(db, companyId, [...new Set(rows.map((row) => row.user_id))]),
      paystubsReadRepo.recordsOf(db, companyId, ids),
      paystubsReadRepo.itemsOf(db, companyId, ids),
    ]);
    const itemsByPaystub = groupBy(items, (item) => item.paystub_id);
    const usersById = new Map(users.map((user) => [user.id, serializeEmbeddedUser(user)]));
    const data = rows.map((row) => ({
      ...serializePaystub(row, itemsByPaystub.get(row.id)),
      user: usersById.get(row.user_id) ?? null,
      contribution: serializeContribution(
        row,
        records.filter((record) => record.contribution_id === row.id),
      ),
    }));
    return {
      message: LISTED,
      data: laravelPage({ publicUrl: config.publicUrl, path: '/api/paystubs', rawQuery, page, perPage }, total, data),
    };
  }

  /**
   * P1's document as JSON text, each paystub's text written by the database and kept (paystubs.list-text.service.ts):
   * for the unfiltered page and the page of one run (`transaction_id` alone), the hot shapes.
   */
  async function listText(companyId: number, query: PaystubListQuery, rawQuery: Record<string, unknown>): Promise<string> {
    const { filters, page, perPage, offset } = listWindow(query);
    if (!databaseWritesPage(filters)) throw new Error('P1 as text: unfiltered or by run alone only');
    const { paystubs, total } = await paystubTexts(db, companyId, { transactionId: filters.transactionId, offset, limit: perPage });
    const request = { publicUrl: config.publicUrl, path: '/api/paystubs', rawQuery, page, perPage };
    return `{"message":${JSON.stringify(LISTED)},"data":${laravelPageJson(request, total, paystubs)}}`;
  }

  return {
    /** P2. `items` is the raw array (the envelope was checked by the route). */
    async createRun(companyId: number, items: unknown[]) {
      const failed: FailedItem[] = [];
      const validated: ValidatedItem[] = [];
      for (let i = 0; i < items.length; i++) {
        const result = validateItem(items[i], i);
        if ('errors' in result) failed.push(result);
        else validated.push(result);
      }
      // Pay item types: the built-ins and the company's own, looked up once for the whole call.
      const codes = codesOf(validated.map((item) => item.itemInputs));
      const types = codes.length > 0 ? await resolveItemTypes(companyId, codes) : new Map();
      const valid: PlanItem[] = [];
      for (const { itemInputs, ...item } of validated) {
        const resolved = resolveItems(itemInputs, types);
        if ('errors' in resolved) failed.push({ index: item.index, id: item.rawId, errors: resolved.errors });
        else valid.push(resolved.items.length > 0 ? { ...item, items: resolved.items } : item);
      }
      const transactionId = newTransactionId();

      const written = await db.transaction(async (tx) => {
        const result = await planAndWriteRun(tx, companyId, transactionId, valid);
        failed.push(...result.failed);
        // Every P2 call is a payroll run too (draft), so its paystubs are approved and paid like any run.
        if (result.written.length > 0) {
          await recordRun(tx, companyId, transactionId, result.written);
          await markIdempotentChange(tx, { kind: 'payroll-run', id: transactionId });
        }
        return result.written;
      });
      failed.sort((a, b) => a.index - b.index);
      return {
        message: 'Paystub processing completed',
        transaction_id: transactionId,
        created_paystubs: written
          .sort((a, b) => a.planned.item.index - b.planned.item.index)
          .map(({ row, records, items }) => ({
            paystub: serializePaystub(row, items),
            custom_contributions: records.map(serializeRecord),
          })),
        failed_paystubs: failed.map((item) => ({ id: item.id, errors: item.errors })),
      };
    },

    /** P1: Laravel's LengthAwarePaginator, newest first (the console's object). */
    list,

    /**
     * P1's answer: on a PostgreSQL server `listText`, elsewhere `list`'s object; the same document,
     * the same bytes once the route's serializer has written the object.
     */
    async listForApi(companyId: number, query: PaystubListQuery, rawQuery: Record<string, unknown>) {
      // Who writes each paystub's JSON text: as for U1 (users.service.ts), a PostgreSQL server writes it
      // on the database's core (paystubs.json.repo.ts), which takes the nested serialization off this
      // process's single thread, the list's bound (docs/benchmarks.md); PGlite runs in this thread, in
      // WASM, so there the serializer keeps the work. Other filters than a run: the JS path everywhere
      // (paystubsListedTextRepo.places says why).
      const useText = onDatabaseServer(db) && databaseWritesPage(listWindow(query).filters);
      return useText ? listText(companyId, query, rawQuery) : list(companyId, query, rawQuery);
    },

    listText,

    /** S4: one page (contributionsPage) of a company's contribution records. */
    async companyContributions(companyId: number, query: PageQuery = {}) {
      const page = contributionsPage(query);
      return pageOf(page, await paystubsRepo.contributions(db, companyId, sqlPage(page)));
    },

    /** S5: one user's contribution records (the user must be in the target company), paged like S4. */
    async userContributions(companyId: number, userId: number | null, query: PageQuery = {}) {
      const page = contributionsPage(query);
      if (userId === null || !(await paystubsRepo.userExists(db, companyId, userId))) throw notFound(USER_NOT_FOUND);
      return pageOf(page, await paystubsRepo.contributions(db, companyId, sqlPage(page), userId));
    },

    /** Console: payroll runs with their count and totals, newest first. */
    async listRuns(companyId: number, page = 1, perPage = 20) {
      const rows = await paystubsRepo.runs(db, companyId, perPage, pageOffset(page, perPage));
      return rows.map((row) => ({
        transaction_id: row.transaction_id,
        paystubs: row.paystubs,
        gross_pay: row.gross_pay,
        net_pay: row.net_pay,
        tax_withheld: row.tax_withheld,
        created_at: row.created_at,
      }));
    },

    /** Console: the paystubs of one run (P1 filtered by transaction_id). */
    async runPaystubs(companyId: number, transactionId: string, page = 1, perPage = 50) {
      return list(
        companyId,
        { transaction_id: transactionId, page, per_page: perPage },
        { transaction_id: transactionId, per_page: perPage },
      );
    },
  };

  /** One more row than the page is read, only to tell whether another page follows. */
  async function pageOf(page: ContributionsPage, rows: Awaited<ReturnType<typeof paystubsRepo.contributions>>) {
    const data = await withRecords(rows.slice(0, page.perPage));
    return { data, meta: { current_page: page.page, per_page: page.perPage, has_more: rows.length > page.perPage } };
  }

  async function withRecords(rows: Awaited<ReturnType<typeof paystubsRepo.contributions>>) {
    const companyIds = [...new Set(rows.map((row) => row.company_id))];
    const records = companyIds.length
      ? await paystubsReadRepo.recordsOf(
          db,
          companyIds[0],
          rows.map((row) => row.id),
        )
      : [];
    const byContribution = new Map<number, typeof records>();
    for (const record of records) {
      const list = byContribution.get(record.contribution_id);
      if (list) list.push(record);
      else byContribution.set(record.contribution_id, [record]);
    }
    return rows.map((row) => serializeContributionDetails(row, byContribution.get(row.id) ?? []));
  }
}

/** The pages the database writes as text (listText): unfiltered, or filtered by one run alone. */
const databaseWritesPage = (filters: PaystubFilters) => filters.userId === undefined && filters.status === undefined;

/** P1's filters and page window (per_page 10 by default). */
function listWindow(query: PaystubListQuery) {
  const filters: PaystubFilters = { userId: query.user_id, transactionId: query.transaction_id, status: query.status };
  const perPage = query.per_page ?? 10;
  const page = query.page ?? 1;
  return { filters, page, perPage, offset: pageOffset(page, perPage) };
}

function groupBy<T>(rows: readonly T[], key: (row: T) => number): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const list = map.get(key(row));
    if (list) list.push(row);
    else map.set(key(row), [row]);
  }
  return map;
}
