// Batched lookups shared by create, update and the CSV import: one query per kind of lookup for a
// whole chunk of rows, never one per row. Lists go in as ONE array parameter (`= ANY($1)`), not
// thousands of `IN ($1, $2, …)` parameters that Drizzle and PostgreSQL would each handle one by one.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import { companies, companyDomains, roles, users, userTypes } from '../../db/schema/index.js';

export interface Vocabulary {
  domains: Map<string, { id: number; name: string }>;
  /** Keyed by lower-case name: CSV files are typed by people. */
  types: Map<string, { id: number; name: string }>;
  roles: Set<string>;
}

export async function loadVocabulary(executor: Executor, companyId: number): Promise<Vocabulary> {
  const [domainRows, typeRows, roleRows] = await Promise.all([
    executor
      .select({ id: companyDomains.id, name: companyDomains.name })
      .from(companyDomains)
      .where(eq(companyDomains.companyId, companyId)),
    executor.select({ id: userTypes.id, name: userTypes.name }).from(userTypes).where(eq(userTypes.companyId, companyId)),
    executor.select({ name: roles.name }).from(roles).where(eq(roles.companyId, companyId)),
  ]);
  return {
    domains: new Map(domainRows.map((row) => [row.name.toLowerCase(), row])),
    types: new Map(typeRows.map((row) => [row.name.toLowerCase(), row])),
    roles: new Set(roleRows.map((row) => row.name)),
  };
}

export interface ManagerRef {
  id: number;
  email: string;
}

/** Live users of the company by company e-mail (manager_email, bulk update keys). */
export async function usersByEmail(
  executor: Executor,
  companyId: number,
  emails: string[],
): Promise<Map<string, typeof users.$inferSelect>> {
  const unique = [...new Set(emails)];
  if (unique.length === 0) return new Map();
  const rows = await executor
    .select()
    .from(users)
    .where(and(eq(users.companyId, companyId), sql`${users.email} = ANY(${pgArray(unique)}::text[])`, isNull(users.deletedAt)));
  return new Map(rows.map((row) => [row.email, row]));
}

/** Live users of the company by personal e-mail. */
export async function usersByPersonalEmail(executor: Executor, companyId: number, emails: string[]) {
  const unique = [...new Set(emails)];
  if (unique.length === 0) return new Map<string, typeof users.$inferSelect>();
  const rows = await executor
    .select()
    .from(users)
    .where(and(eq(users.companyId, companyId), sql`${users.personalEmail} = ANY(${pgArray(unique)}::text[])`, isNull(users.deletedAt)));
  return new Map(rows.map((row) => [row.personalEmail, row]));
}

/**
 * Every company e-mail (any company, deleted users too) whose stem (`local` without trailing
 * digits, `@domain`) is one of `stems`.
 */
export async function takenEmailsByStem(executor: Executor, stems: string[]): Promise<Set<string>> {
  // One index probe per stem (users_email_stem_idx). `OFFSET 0` keeps the subquery a per-stem
  // probe: flattened into `stem = ANY(…)`, a table never analyzed (a new database, the first
  // minutes of a big import) is planned as a scan of every user with a regexp per row.
  const rows = await queryRows<{ email: string }>(
    executor,
    sql`SELECT taken.email FROM unnest(${pgArray(stems)}::text[]) AS s(stem)
        CROSS JOIN LATERAL (
          SELECT email FROM users
          WHERE (regexp_replace(split_part(email, '@', 1), '[0-9]+$', '') || '@' || split_part(email, '@', 2)) = s.stem
          OFFSET 0) AS taken`,
  );
  return new Set(rows.map((row) => row.email));
}

/**
 * Reserves `count` employee numbers in one atomic UPDATE … RETURNING: concurrent requests get
 * disjoint ranges, and numbers of a rolled-back transaction are simply never reused.
 */
export async function allocateEmployeeIds(executor: Executor, companyId: number, count: number) {
  const [row] = await executor
    .update(companies)
    .set({ employeeSeq: sql`${companies.employeeSeq} + ${count}` })
    .where(eq(companies.id, companyId))
    .returning({ last: companies.employeeSeq, code: companies.code, name: companies.name });
  const first = row.last - count + 1;
  return {
    companyName: row.name,
    ids: Array.from({ length: count }, (_, i) => `${row.code}-${String(first + i).padStart(4, '0')}`),
  };
}

export async function companyName(executor: Executor, companyId: number): Promise<string> {
  const [row] = await executor.select({ name: companies.name }).from(companies).where(eq(companies.id, companyId));
  return row?.name ?? '';
}
