// Batched lookups shared by create, update and the CSV import: one query per kind of lookup for a
// whole chunk of rows, never one per row. Lists go in as ONE array parameter (`= ANY($1)`), not
// thousands of `IN ($1, $2, …)` parameters that Drizzle and PostgreSQL would each handle one by one.
import { and, eq, isNull, type Placeholder, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import { namedStatement } from '../../db/prepared.js';
import { companies, users } from '../../db/schema/index.js';
import { webhookAudienceSql } from '../webhooks/index.js';
import type { UserRow } from './users.repo.js';

export interface Vocabulary {
  domains: Map<string, { id: number; name: string }>;
  /** Keyed by lower-case name: CSV files are typed by people. */
  types: Map<string, { id: number; name: string }>;
  roles: Set<string>;
}

/**
 * The company's domains, user types and roles as ONE json value, `[[[id, name]…], [[id, name]…],
 * [name…]]`: one expression, so that the reservation of a create carries it (reserveEmployeeNumbers)
 * and other callers read it in one statement instead of three.
 */
const vocabularySql = (companyId: Placeholder) =>
  sql<VocabularyJson>`json_build_array(
    (SELECT coalesce(json_agg(json_build_array(d.id, d.name)), '[]'::json) FROM company_domains d WHERE d.company_id = ${companyId}),
    (SELECT coalesce(json_agg(json_build_array(t.id, t.name)), '[]'::json) FROM user_types t WHERE t.company_id = ${companyId}),
    (SELECT coalesce(json_agg(r.name), '[]'::json) FROM roles r WHERE r.company_id = ${companyId}))`;
type VocabularyJson = [[number, string][], [number, string][], string[]];

function vocabularyOf([domains, types, roles]: VocabularyJson): Vocabulary {
  return {
    domains: new Map(domains.map(([id, name]) => [name.toLowerCase(), { id, name }])),
    types: new Map(types.map(([id, name]) => [name.toLowerCase(), { id, name }])),
    roles: new Set(roles),
  };
}

const vocabularyStatement = namedStatement<{ vocabulary: VocabularyJson }>(
  'users_vocabulary',
  sql`SELECT ${vocabularySql(sql.placeholder('companyId'))} AS vocabulary`,
);

export async function loadVocabulary(executor: Executor, companyId: number): Promise<Vocabulary> {
  const [row] = await vocabularyStatement(executor, { companyId });
  return vocabularyOf(row.vocabulary);
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

const companyParam = sql.placeholder('companyId');
const reserveStatement = namedStatement<{
  last_number: number;
  reserved: number;
  company_code: string;
  company_name: string;
  vocabulary: VocabularyJson;
  announce: boolean;
}>(
  'users_reserve_numbers',
  sql`SELECT r.last_number, r.reserved, r.company_code, r.company_name, ${vocabularySql(companyParam)} AS vocabulary,
        ${webhookAudienceSql(companyParam)} AS announce
      FROM users_reserve_numbers(${companyParam}, ${sql.placeholder('personalEmails')}::text[]) AS r`,
);

/**
 * Before a batch's transaction, on its own (autocommit; never inside the batch's transaction):
 * reserves one employee number per distinct personal e-mail that has no live user in the company
 * yet (the rows that will be new unless a concurrent writer or a validation error intervenes), in
 * ONE statement, and commits at once, asynchronously (migrations/0204_users_create_round_trips.sql
 * says why that is safe for the reservation alone). The company row is locked for this statement
 * only, so creates of one company do not queue behind each other's transactions (docs/users.md,
 * "Employee numbers"). Numbers the batch does not use are given back when still the last ones
 * reserved (releaseEmployeeNumbers), else they stay unused: gaps, never repeats. The same statement
 * brings the company's vocabulary and whether any webhook endpoint could hear of the batch, which
 * a create needs anyway: one round trip instead of five.
 */
export async function reserveEmployeeNumbers(executor: Executor, companyId: number, personalEmails: string[]) {
  const [row] = await reserveStatement(executor, { companyId, personalEmails: pgArray(personalEmails) });
  return {
    companyName: row.company_name,
    last: row.last_number,
    reserved: row.reserved,
    ids: employeeNumbers(row.company_code, row.last_number - row.reserved + 1, row.reserved),
    vocabulary: vocabularyOf(row.vocabulary),
    announce: row.announce,
  };
}

const lookupStatement = namedStatement<{ found_kind: 'taken' | 'personal' | 'manager'; found_email: string; found_id: number | null }>(
  'users_create_lookup',
  sql`SELECT found_kind, found_email, found_id FROM users_create_lookup(${sql.placeholder('companyId')}, ${sql.placeholder('keys')}::int[],
        ${sql.placeholder('stems')}::text[], ${sql.placeholder('exact')}::text[], ${sql.placeholder('personal')}::text[],
        ${sql.placeholder('managers')}::text[])`,
);

/** What a create round looks up before it plans (createLookup). */
export interface CreateLookup {
  /** Company e-mails (any company, deleted users too) of the stems asked for. */
  taken: Set<string>;
  /** Live users of the company by personal e-mail. */
  existing: Map<string, UserRow>;
  /** Live users of the company by company e-mail (manager_email). */
  managers: Map<string, UserRow>;
}

/**
 * A create round's reads in one statement (users_create_lookup, 0204): first the e-mail-stem locks
 * `keys` (transaction-scoped advisory locks in the company's own lock space, one per key of
 * emailStemKeys, ascending; none in later rounds, which hold them already), then, in snapshots taken
 * after them, the taken e-mails of each stem (only when its `exact` address, the one its row would
 * take first, is taken or null) and the ids of the company's live users with these
 * personal and company e-mails. Those users' rows, when there are any (a re-invite, a manager), in
 * a second statement. Each read of users inside it finds its rows by its own index whatever the
 * statistics (migration 0267).
 */
export async function createLookup(
  tx: Executor,
  companyId: number,
  ask: { keys: number[]; addresses: { stem: string; exact: string | null }[]; personalEmails: string[]; managerEmails: string[] },
): Promise<CreateLookup> {
  const stems = new Map<string, string | null>();
  // A stem asked by two rows always reads its addresses: the second row's choice depends on them.
  for (const { stem, exact } of ask.addresses) stems.set(stem, stems.has(stem) ? null : exact);
  const found = await lookupStatement(tx, {
    companyId,
    keys: pgArray(ask.keys),
    stems: pgArray([...stems.keys()]),
    exact: pgArray([...stems.values()]),
    personal: pgArray([...new Set(ask.personalEmails)]),
    managers: pgArray([...new Set(ask.managerEmails)]),
  });
  const lookup: CreateLookup = { taken: new Set(), existing: new Map(), managers: new Map() };
  const ids = found.flatMap((row) => (row.found_id === null ? [] : [row.found_id]));
  const rows = new Map(
    ids.length === 0
      ? []
      : (
          await tx
            .select()
            .from(users)
            .where(
              and(eq(users.companyId, companyId), sql`${users.id} = ANY(${pgArray([...new Set(ids)])}::int[])`, isNull(users.deletedAt)),
            )
        ).map((row) => [row.id, row]),
  );
  for (const row of found) {
    if (row.found_kind === 'taken') lookup.taken.add(row.found_email);
    const user = row.found_id === null ? undefined : rows.get(row.found_id);
    if (!user) continue;
    if (row.found_kind === 'personal' && user.personalEmail === row.found_email) lookup.existing.set(user.personalEmail, user);
    if (row.found_kind === 'manager' && user.email === row.found_email) lookup.managers.set(user.email, user);
  }
  return lookup;
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
