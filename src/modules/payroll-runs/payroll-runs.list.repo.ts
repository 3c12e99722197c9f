// The SQL of a list of one company's runs (GET /api/payroll-runs, Console → Payroll): its filters,
// and one page in a chosen order with the filter's total and each run's paystubs by status, in one
// statement (one round trip and one snapshot). Each order reads an index of (company, key, id):
// payroll_runs_company_idx (0080) for creation, payroll_runs_company_period_idx (0264) for the pay
// period; the counts are the sums of each run's counter slots (paystub_run_counts, 0260/0265).
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
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

function where(companyId: number, filters: RunFilters): SQL {
  const parts = [sql`company_id = ${companyId}`];
  if (filters.status !== undefined) parts.push(sql`status = ${filters.status}`);
  if (filters.kind !== undefined) parts.push(sql`kind = ${filters.kind}`);
  if (filters.periodFrom !== undefined) parts.push(sql`pay_period_start >= ${filters.periodFrom}::date`);
  if (filters.periodTo !== undefined) parts.push(sql`pay_period_end <= ${filters.periodTo}::date`);
  return sql.join(parts, sql` AND `);
}

const STATUSES: (keyof StatusCounts)[] = ['unpaid', 'held', 'processing', 'paid', 'failed', 'cancelled'];
const statusSums = sql.raw(STATUSES.map((status) => `coalesce(sum(rc.${status}), 0)::int AS ${status}`).join(', '));

type PageRow = RunRow & { total: number; sort_key: unknown; counts: StatusCounts };

export const runListRepo = {
  /**
   * Newest first unless an order is given; ties (two runs of one period) fall back on the id, the
   * same way. The total comes from a one-row subquery the page is joined to, so a page past the end
   * still carries it (as one row with no run).
   */
  async page(
    db: Executor,
    companyId: number,
    filters: RunFilters,
    limit: number,
    offset: number,
    order: RunOrder = { key: 'created', direction: 'desc' },
  ): Promise<{ total: number; rows: { run: RunRow; counts: StatusCounts }[] }> {
    const direction = sql.raw(order.direction === 'asc' ? 'ASC' : 'DESC');
    const found = await queryRows<PageRow>(
      db,
      sql`WITH page AS (
            SELECT ${RUN_COLUMNS}, ${SORT_COLUMN[order.key]} AS sort_key FROM payroll_runs WHERE ${where(companyId, filters)}
            ORDER BY ${SORT_COLUMN[order.key]} ${direction}, id ${direction} LIMIT ${limit} OFFSET ${offset})
          SELECT t.total, page.*, to_jsonb(c) AS counts
          FROM (SELECT count(*)::int AS total FROM payroll_runs WHERE ${where(companyId, filters)}) t
          LEFT JOIN page ON true
          LEFT JOIN LATERAL (SELECT ${statusSums} FROM paystub_run_counts rc
                             WHERE rc.company_id = ${companyId} AND rc.transaction_id = page.id) c ON true
          ORDER BY page.sort_key ${direction}, page.id ${direction}`,
    );
    const total = found[0]?.total ?? 0;
    const rows = found.filter((row) => row.id !== null).map(({ total: _total, sort_key: _sortKey, counts, ...run }) => ({ run, counts }));
    return { total, rows };
  },
};
