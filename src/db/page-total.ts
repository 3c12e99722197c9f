// A page of rows and its filter's total in one statement (the lists of loans and of runs): the total is an
// uncorrelated subquery in the page's select list, computed once and in the page's snapshot, so a
// list costs one round trip instead of a count and a page side by side on two connections. A page
// with no row cannot carry it: past the end, the count is asked alone; an empty first page has a
// total of 0.
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from './client.js';

export interface PageStatement {
  /** The page's select list. */
  columns: SQL;
  /** `FROM … WHERE …`, shared by the page and its count (aliases inside the count are its own). */
  from: SQL;
  order: SQL;
  limit: number;
  offset: number;
}

export async function pageWithTotal<T extends object>(executor: Executor, page: PageStatement): Promise<{ total: number; rows: T[] }> {
  const found = await queryRows<T & { page_total: number }>(
    executor,
    sql`SELECT (SELECT count(*)::int ${page.from}) AS page_total, ${page.columns} ${page.from}
        ORDER BY ${page.order} LIMIT ${page.limit} OFFSET ${page.offset}`,
  );
  if (found.length > 0) return { total: found[0].page_total, rows: found.map(({ page_total: _total, ...row }) => row as unknown as T) };
  if (page.offset === 0) return { total: 0, rows: [] };
  const [row] = await queryRows<{ n: number }>(executor, sql`SELECT count(*)::int AS n ${page.from}`);
  return { total: row.n, rows: [] };
}
