// The SQL of a list of one company's runs (GET /api/payroll-runs, Console → Payroll): its filters,
// and one page in a chosen order with the filter's total and each run's paystubs by status, in one
// statement (one round trip and one snapshot: db/page-total.ts). Each order reads an index of
// (company, key, id): payroll_runs_company_idx (0080) for creation, payroll_runs_company_period_idx
// (0264) for the pay period; the counts are the sums of each run's counter slots
// (paystub_run_counts, 0260/0265). One named prepared statement per order and set of filters.
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { filtersGiven, namedPageWithTotal } from '../../db/page-total.js';
import { rowVersion } from '../../db/row-version.js';
import { RUN_COLUMNS, type RunRow, type StatusCounts } from './payroll-runs.repo.js';

export interface RunFilters {
  status?: string;
  kind?: string;
  periodFrom?: string;
  periodTo?: string;
}

/** The orders a list of runs can be read in: the console's sortable columns (the API lists newest first). */
export const RUN_SORTS = ['created', 'pay_period'] as const;
export type RunSort = (typeof RUN_SORTS)[number];
export interface RunOrder {
  key: RunSort;
  direction: 'asc' | 'desc';
}
const SORT_COLUMN: Record<RunSort, SQL> = { created: sql.raw('created_at'), pay_period: sql.raw('pay_period_start') };

/** Each filter's condition; with the order, the filters given name the page's statement (db/page-total.ts). */
const FILTER_SQL: Record<keyof RunFilters, SQL> = {
  status: sql`status = ${sql.placeholder('status')}`,
  kind: sql`kind = ${sql.placeholder('kind')}`,
  periodFrom: sql`pay_period_start >= ${sql.placeholder('periodFrom')}::date`,
  periodTo: sql`pay_period_end <= ${sql.placeholder('periodTo')}::date`,
};

const STATUSES: (keyof StatusCounts)[] = ['unpaid', 'held', 'processing', 'paid', 'failed', 'cancelled'];
const statusSums = sql.raw(STATUSES.map((status) => `coalesce(sum(rc.${status}), 0)::int AS ${status}`).join(', '));

/** What the console's Payroll table shows of a run (src/web/payroll-runs-list.view.ts): totals as their stored text. */
export interface ListedRunRow
  extends Pick<RunRow, 'id' | 'status' | 'kind' | 'reason' | 'pay_period_start' | 'pay_period_end' | 'created_at'> {
  employees: string | null;
  gross_pay: string | null;
  tax_withheld: string | null;
  net_pay: string | null;
}
const LISTED_RUN_COLUMNS =
  sql.raw(`id, status, kind, reason, pay_period_start::text AS pay_period_start, pay_period_end::text AS pay_period_end,
  created_at, totals->>'employees' AS employees, totals->>'gross_pay' AS gross_pay, totals->>'tax_withheld' AS tax_withheld,
  totals->>'net_pay' AS net_pay`);
const orderOf = (order: RunOrder) => {
  const direction = sql.raw(order.direction === 'asc' ? 'ASC' : 'DESC');
  // Qualified: the bare name would be the select list's text of the date.
  return sql`payroll_runs.${SORT_COLUMN[order.key]} ${direction}, payroll_runs.id ${direction}`;
};

export const runListRepo = {
  /**
   * Newest first unless an order is given; ties (two runs of one period) fall back on the id, the
   * same way. Each run's counts are a sub-select of the page's row, so only the page's runs are
   * summed, never those the total counts (db/page-total.ts).
   */
  async page(
    db: Executor,
    companyId: number,
    filters: RunFilters,
    limit: number,
    offset: number,
    order: RunOrder = { key: 'created', direction: 'desc' },
  ): Promise<{ total: number; rows: { run: RunRow; counts: StatusCounts }[] }> {
    const given = filtersGiven(FILTER_SQL, filters);
    const name = ['payroll_runs_page', order.key, order.direction, ...given.keys].join('_').toLowerCase();
    const { total, rows } = await namedPageWithTotal<RunRow & { counts: StatusCounts }>(
      db,
      name,
      () => {
        const company = sql.placeholder('companyId');
        const filtered = sql.join([sql`company_id = ${company}`, ...given.conditions], sql` AND `);
        return {
          columns: sql`${RUN_COLUMNS}, (SELECT to_jsonb(c) FROM (SELECT ${statusSums} FROM paystub_run_counts rc
                         WHERE rc.company_id = ${company} AND rc.transaction_id = payroll_runs.id) c) AS counts`,
          from: sql`FROM payroll_runs WHERE ${filtered}`,
          order: orderOf(order),
        };
      },
      { companyId, ...given.values },
      limit,
      offset,
    );
    return { total, rows: rows.map(({ counts, ...run }) => ({ run, counts })) };
  },

  /**
   * The console's page of runs, unfiltered, in `order`, with the company's total: only the table's
   * columns, the four totals it shows read out of the stored jsonb as their text (exact, where the
   * API's numbers are doubles), and no counts (the table shows none).
   */
  listedPage(
    db: Executor,
    companyId: number,
    limit: number,
    offset: number,
    order: RunOrder,
  ): Promise<{ total: number; rows: ListedRunRow[] }> {
    return listedRuns<ListedRunRow>(db, 'payroll_runs_listed', LISTED_RUN_COLUMNS, { companyId, limit, offset, order });
  },

  /** `listedPage`'s runs as their places only (id and row version, db/row-version.ts), with the total: the console keeps the rows it drew. */
  listedPlaces(
    db: Executor,
    companyId: number,
    limit: number,
    offset: number,
    order: RunOrder,
  ): Promise<{ total: number; rows: ListedRunPlace[] }> {
    return listedRuns<ListedRunPlace>(db, 'payroll_runs_listed_places', sql`id, ${rowVersion('payroll_runs')} AS version`, {
      companyId,
      limit,
      offset,
      order,
    });
  },
};

/** The console's page of the company's runs in `order`, each as `columns`, with the total: one named statement per order. */
function listedRuns<T extends object>(
  db: Executor,
  name: string,
  columns: SQL,
  { companyId, limit, offset, order }: { companyId: number; limit: number; offset: number; order: RunOrder },
): Promise<{ total: number; rows: T[] }> {
  return namedPageWithTotal<T>(
    db,
    [name, order.key, order.direction].join('_'),
    () => ({ columns, from: sql`FROM payroll_runs WHERE company_id = ${sql.placeholder('companyId')}`, order: orderOf(order) }),
    { companyId },
    limit,
    offset,
  );
}

/** A run's place on the console's Payroll table: its id and its row's version. */
export interface ListedRunPlace {
  id: string;
  version: string;
}
