// A page of rows and its filter's total in one statement (the lists of loans and of runs): the total is an
// uncorrelated subquery in the page's select list, computed once and in the page's snapshot, so a
// list costs one round trip instead of a count and a page side by side on two connections. A page
// with no row cannot carry it: past the end, the count is asked alone; an empty first page has a
// total of 0. Each shape of page is a named prepared statement (db/prepared.ts).
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from './client.js';
import { namedStatement } from './prepared.js';

export interface PageStatement {
  /** The page's select list. */
  columns: SQL;
  /** `FROM … WHERE …`, shared by the page and its count (aliases inside the count are its own). */
  from: SQL;
  order: SQL;
  /** The total as one value, when a counter keeps it (loan_counts); otherwise the rows of `from` are counted. */
  total?: SQL;
}

type Found<T> = T & { page_total: number };

/** The page from its rows (each carrying the total), or, with none, the total asked by `count`. */
async function withTotal<T extends object>(found: Found<T>[], offset: number, count: () => Promise<number>) {
  if (found.length > 0) return { total: found[0].page_total, rows: found.map(({ page_total: _total, ...row }) => row as unknown as T) };
  if (offset === 0) return { total: 0, rows: [] as T[] };
  return { total: await count(), rows: [] as T[] };
}

/**
 * The filters of a list that were given, each a condition written with `sql.placeholder(key)`: their
 * keys (in `conditions`' order, so that one set of filters always names one statement), their
 * conditions and the values for their placeholders.
 */
export function filtersGiven<K extends string>(conditions: Record<K, SQL>, given: Partial<Record<K, unknown>>) {
  const keys = (Object.keys(conditions) as K[]).filter((key) => given[key] !== undefined);
  return {
    keys,
    conditions: keys.map((key) => conditions[key]),
    values: Object.fromEntries(keys.map((key) => [key, given[key]])) as Record<string, unknown>,
  };
}

type Statement<T> = (executor: Executor, values: Record<string, unknown>) => Promise<T[]>;
const namedPages = new Map<string, { rows: Statement<Found<object>>; count: Statement<{ n: number }> }>();

/**
 * The page and its total as named prepared statements (db/prepared.ts): the page's text is built
 * once per process and, on PostgreSQL, parsed and planned once per connection, where a statement
 * written for each request was built, sent and planned every time (the runs list and the console's
 * Payroll page until 28 November). `build` writes the parts with `sql.placeholder(key)` for
 * every key of `values` (and nothing else that varies), and is called only the first time a name
 * is asked for: `name` must tell apart every text `build` can write (which filters, which order).
 */
export async function namedPageWithTotal<T extends object>(
  executor: Executor,
  name: string,
  build: () => PageStatement,
  values: Record<string, unknown>,
  limit: number,
  offset: number,
): Promise<{ total: number; rows: T[] }> {
  let statements = namedPages.get(name);
  if (statements === undefined) {
    const page = build();
    const total = page.total ?? sql`(SELECT count(*)::int ${page.from})`;
    statements = {
      rows: namedStatement<Found<object>>(
        name,
        sql`SELECT ${total} AS page_total, ${page.columns} ${page.from}
            ORDER BY ${page.order} LIMIT ${sql.placeholder('limit')} OFFSET ${sql.placeholder('offset')}`,
      ),
      count: namedStatement<{ n: number }>(`${name}_count`, sql`SELECT ${total} AS n`),
    };
    namedPages.set(name, statements);
  }
  const { rows, count } = statements;
  const found = (await rows(executor, { ...values, limit, offset })) as Found<T>[];
  return withTotal(found, offset, async () => (await count(executor, values))[0].n);
}
