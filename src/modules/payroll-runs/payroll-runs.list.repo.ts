// The SQL of a list of one company's runs (GET /api/payroll-runs, Console → Payroll): its filters,
// and one page in a chosen order with the filter's total and each run's paystubs by status, in one
// statement (one round trip and one snapshot: db/page-total.ts). Each order reads an index of
// (company, key, id): payroll_runs_company_idx (0080) for creation, payroll_runs_company_period_idx
// (0264) for the pay period; the counts are the sums of each run's counter slots
// (paystub_run_counts, 0260/0265).
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { pageWithTotal } from '../../db/page-total.js';
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
    const direction = sql.raw(order.direction === 'asc' ? 'ASC' : 'DESC');
    const counts = sql`(SELECT to_jsonb(c) FROM (SELECT ${statusSums} FROM paystub_run_counts rc
                         WHERE rc.company_id = ${companyId} AND rc.transaction_id = payroll_runs.id) c) AS counts`;
    const { total, rows } = await pageWithTotal<RunRow & { counts: StatusCounts }>(db, {
      columns: sql`${RUN_COLUMNS}, ${counts}`,
      from: sql`FROM payroll_runs WHERE ${where(companyId, filters)}`,
      // Qualified: the bare name would be the select list's text of the date.
      order: sql`payroll_runs.${SORT_COLUMN[order.key]} ${direction}, payroll_runs.id ${direction}`,
      limit,
      offset,
    });
    return { total, rows: rows.map(({ counts, ...run }) => ({ run, counts })) };
  },
};
