// A page of one company's runs (GET /api/payroll-runs, Console → Payroll): the filters checked,
// the page, its count and each run's paystubs by status read in one statement (payroll-runs.list.repo.ts).
// `order` is the console's (its sortable columns); the API lists newest first. The API's unfiltered
// page is written as JSON text by a PostgreSQL server (payroll-runs.list-text.service.ts; `listForApi`).
import { type Db, onDatabaseServer } from '../../db/client.js';
import { invalid } from '../../platform/errors.js';
import { laravelPage, laravelPageJson, lastPageOf, pageOffset } from '../../platform/paginator.js';
import { validDate } from '../paystubs/index.js';
import { type RunFilters, type RunOrder, runListRepo } from './payroll-runs.list.repo.js';
import { createRunTexts } from './payroll-runs.list-text.service.js';
import { MESSAGES } from './payroll-runs.lookup.service.js';
import { serializeRun } from './payroll-runs.serializer.js';

export interface RunListQuery {
  status?: string;
  kind?: string;
  pay_period_start?: string;
  pay_period_end?: string;
  page?: number;
  per_page?: number;
}

const FILTERS = ['status', 'kind', 'pay_period_start', 'pay_period_end'] as const;

export function createRunList(deps: { db: Db; config: { publicUrl: string } }) {
  const { db, config } = deps;
  const runTexts = createRunTexts(db);
  const pageRequest = (rawQuery: Record<string, unknown>, page: number, perPage: number) => ({
    publicUrl: config.publicUrl,
    path: '/api/payroll-runs',
    rawQuery,
    page,
    perPage,
  });

  /** The API's unfiltered page as JSON text, each run's text written by the database or kept (payroll-runs.list-text.service.ts): the same bytes as `list`'s object serialized. */
  async function listText(companyId: number, query: RunListQuery, rawQuery: Record<string, unknown>): Promise<string> {
    if (FILTERS.some((filter) => query[filter] !== undefined)) throw new Error('the runs list as text: unfiltered only');
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 10;
    const found = await runTexts(companyId, pageOffset(page, perPage), perPage);
    // Past the end no row carries the total: the JS path's statement counts.
    const total = found.total ?? (await runListRepo.page(db, companyId, {}, 1, 0)).total;
    return `{"message":${JSON.stringify(MESSAGES.listed)},"data":${laravelPageJson(pageRequest(rawQuery, page, perPage), total, found.runs)}}`;
  }

  async function list(companyId: number, query: RunListQuery, rawQuery: Record<string, unknown>, order?: RunOrder) {
    const fields: Record<string, string[]> = {};
    for (const field of ['pay_period_start', 'pay_period_end'] as const) {
      const value = query[field];
      if (value !== undefined && !validDate(value))
        fields[field] = [`The ${field.replace(/_/g, ' ')} field must be a valid date in the format YYYY-MM-DD.`];
    }
    if (Object.keys(fields).length > 0) throw invalid(fields);
    const filters: RunFilters = {
      status: query.status,
      kind: query.kind,
      periodFrom: query.pay_period_start,
      periodTo: query.pay_period_end,
    };
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 10;
    const { total, rows } = await runListRepo.page(db, companyId, filters, perPage, pageOffset(page, perPage), order);
    const data = rows.map((row) => serializeRun(row.run, row.counts));
    return { message: MESSAGES.listed, data: laravelPage(pageRequest(rawQuery, page, perPage), total, data) };
  }

  /** The console's Payroll table: a page of the company's runs in `order`, each as the table shows it, and the last page. */
  async function listed(companyId: number, page: number, perPage: number, order: RunOrder) {
    const { total, rows } = await runListRepo.listedPage(db, companyId, perPage, pageOffset(page, perPage), order);
    return { runs: rows, lastPage: lastPageOf(total, perPage) };
  }

  /** `listed`'s runs as their places (id and row version), and the last page. */
  async function listedPlaces(companyId: number, page: number, perPage: number, order: RunOrder) {
    const { total, rows } = await runListRepo.listedPlaces(db, companyId, perPage, pageOffset(page, perPage), order);
    return { places: rows, lastPage: lastPageOf(total, perPage) };
  }

  return {
    list,
    listText,
    listed,
    listedPlaces,
    /**
     * The API's answer: unfiltered on a PostgreSQL server `listText`, otherwise `list`'s object; the
     * same document, the same bytes once the route's serializer has written the object. As for U1
     * and P1 (users.service.ts), PostgreSQL writes the texts on its own core, off this process's
     * single thread; PGlite runs in this thread, where the serializer keeps the work.
     */
    async listForApi(companyId: number, query: RunListQuery, rawQuery: Record<string, unknown>) {
      const unfiltered = FILTERS.every((filter) => query[filter] === undefined);
      return onDatabaseServer(db) && unfiltered ? listText(companyId, query, rawQuery) : list(companyId, query, rawQuery);
    },
  };
}
