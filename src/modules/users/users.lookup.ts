// Batched lookups shared by create, update and the CSV import: one query per kind of lookup for a
// whole chunk of rows, never one per row. Lists go in as ONE array parameter (`= ANY($1)`), not
// thousands of `IN ($1, $2, …)` parameters that Drizzle and PostgreSQL would each handle one by one.
import crypto from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import { companies, companyDomains, roles, users, userTypes } from '../../db/schema/index.js';

export const ONBOARDING_TTL_MS = 7 * 24 * 3600 * 1000;

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

/** `first.last` from names: lower-case ASCII letters and digits, accents folded, dots between. */
export function emailLocalPart(firstName: string, lastName: string): string {
  const clean = (name: string) =>
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean)
      .join('.');
  const local = [clean(firstName), clean(lastName)].filter(Boolean).join('.');
  return local || 'user';
}

const stemOf = (email: string) => {
  const [local, domain] = email.split('@');
  return `${local.replace(/[0-9]+$/, '')}@${domain}`;
};

/**
 * Picks a free company e-mail for each request (`ada.obi@acme.test`, then `ada.obi2@…`), with one
 * query for the whole batch. Addresses are unique across ALL users (every company, deleted users
 * too). `own` is an address the row itself already holds (an update may keep it). Requests in the
 * same batch never get the same address. A concurrent writer can still take one first: the insert
 * or update then hits `users_email_key` and the caller retries.
 */
export async function deriveEmails(executor: Executor, requests: { local: string; domain: string; own?: string }[]): Promise<string[]> {
  if (requests.length === 0) return [];
  const stems = [...new Set(requests.map((r) => stemOf(`${r.local}@${r.domain}`)))];
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
  const taken = new Set(rows.map((row) => row.email));
  // Where the search for each address stopped, so many equal names stay linear, not quadratic.
  const next = new Map<string, number>();
  return requests.map((request) => {
    const key = `${request.local}@${request.domain}`;
    for (let n = next.get(key) ?? 1; ; n++) {
      const candidate = `${request.local}${n === 1 ? '' : n}@${request.domain}`;
      if (candidate === request.own || !taken.has(candidate)) {
        taken.add(candidate);
        next.set(key, n + 1);
        return candidate;
      }
    }
  });
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

/** `count` URL-safe random strings of `bytes` random bytes each, from one CSPRNG call. */
export function randomIds(count: number, bytes: number): string[] {
  const pool = crypto.randomBytes(count * bytes);
  return Array.from({ length: count }, (_, i) => pool.subarray(i * bytes, (i + 1) * bytes).toString('base64url'));
}

/** 16 URL-safe characters (96 random bits). */
export const newUniqueId = () => crypto.randomBytes(12).toString('base64url');
/** 43 URL-safe characters (256 random bits). */
export const newOnboardingToken = () => crypto.randomBytes(32).toString('base64url');
