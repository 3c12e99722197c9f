// The SQL of a list of one company's runs (GET /api/payroll-runs, Console → Payroll): its filters,
// its count and one page in a chosen order. Each order reads an index of (company, key, id):
// payroll_runs_company_idx (0080) for creation, payroll_runs_company_period_idx (0264) for the pay period.
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { RUN_COLUMNS, type RunRow } from './payroll-runs.repo.js';

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

export const runListRepo = {
  async count(db: Executor, companyId: number, filters: RunFilters): Promise<number> {
    const [row] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM payroll_runs WHERE ${where(companyId, filters)}`);
    return row.n;
  },

  /** Newest first unless an order is given; ties (two runs of one period) fall back on the id, the same way. */
  async page(
    db: Executor,
    companyId: number,
    filters: RunFilters,
    limit: number,
    offset: number,
    order: RunOrder = { key: 'created', direction: 'desc' },
  ): Promise<RunRow[]> {
    const direction = sql.raw(order.direction === 'asc' ? 'ASC' : 'DESC');
    return queryRows<RunRow>(
      db,
      sql`SELECT ${RUN_COLUMNS} FROM payroll_runs WHERE ${where(companyId, filters)}
          ORDER BY ${SORT_COLUMN[order.key]} ${direction}, id ${direction} LIMIT ${limit} OFFSET ${offset}`,
    );
  },
};
