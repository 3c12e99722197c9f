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
 * Before a batch's transaction, on its own (autocommit; never inside the batch's transaction):
 * reserves one employee number per distinct personal e-mail that has no live user in the company
 * yet (the rows that will be new unless a concurrent writer or a validation error intervenes), in
 * ONE statement, and commits at once. The company row is locked for this statement only, so
 * creates of one company do not queue behind each other's transactions (docs/users.md, "Employee
 * numbers"). Numbers the batch does not use are given back when still the last ones reserved
 * (releaseEmployeeNumbers), else they stay unused: gaps, never repeats.
 */
export async function reserveEmployeeNumbers(executor: Executor, companyId: number, personalEmails: string[]) {
  const [row] = await queryRows<{ last: number; count: number; code: string; name: string }>(
    executor,
    sql`WITH wanted AS (
          SELECT count(*)::int AS n FROM (SELECT DISTINCT e FROM unnest(${pgArray(personalEmails)}::text[]) AS e) w
          WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.company_id = ${companyId} AND u.personal_email = w.e AND u.deleted_at IS NULL))
        UPDATE companies SET employee_seq = employee_seq + wanted.n FROM wanted WHERE id = ${companyId}
        RETURNING employee_seq AS last, wanted.n AS count, code, name`,
  );
  return {
    companyName: row.name,
    last: row.last,
    reserved: row.count,
    ids: employeeNumbers(row.code, row.last - row.count + 1, row.count),
  };
}

/**
 * Gives back the `count` highest numbers of a reservation that ended at `last`, only if nobody has
 * reserved since (the sequence still stands at `last`): a refused create then leaves the company
 * row as it was. Returns whether it did; if not, the numbers stay unused (a gap).
 */
export async function releaseEmployeeNumbers(executor: Executor, companyId: number, last: number, count: number): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    executor,
    sql`UPDATE companies SET employee_seq = employee_seq - ${count} WHERE id = ${companyId} AND employee_seq = ${last} RETURNING id`,
  );
  return rows.length > 0;
}

/**
 * Transaction-scoped advisory locks, one per key (emailStemKeys: ascending), in the company's own
 * lock space: concurrent batches deriving e-mails of one stem take turns, so the later one sees the
 * earlier one's address and takes the next number instead of losing a race on the unique index.
 */
export async function lockEmailStems(tx: Executor, companyId: number, keys: number[]): Promise<void> {
  if (keys.length === 0) return;
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${companyId}::int, k) FROM unnest(${pgArray(keys)}::int[]) AS k`);
}

const employeeNumbers = (code: string, first: number, count: number) =>
  Array.from({ length: count }, (_, i) => `${code}-${String(first + i).padStart(4, '0')}`);

/**
 * Reserves `count` employee numbers in one atomic UPDATE … RETURNING inside the caller's
 * transaction (the company row stays locked until it ends): only when a batch needs more numbers
 * than it reserved beforehand (a row expected to be a re-invite turned out new).
 */
export async function allocateEmployeeIds(executor: Executor, companyId: number, count: number) {
  const [row] = await executor
    .update(companies)
    .set({ employeeSeq: sql`${companies.employeeSeq} + ${count}` })
    .where(eq(companies.id, companyId))
    .returning({ last: companies.employeeSeq, code: companies.code, name: companies.name });
  return { companyName: row.name, ids: employeeNumbers(row.code, row.last - count + 1, count) };
}

export async function companyName(executor: Executor, companyId: number): Promise<string> {
  const [row] = await executor.select({ name: companies.name }).from(companies).where(eq(companies.id, companyId));
  return row?.name ?? '';
}
