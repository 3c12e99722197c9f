// All SQL of a company's vocabulary: e-mail domains, user types, roles and wallet redirect hosts.
// The four live in tables of the same shape (id, company_id, one text value), so one table-driven
// set of statements serves them all; what differs is only which users keep an entry "in use".
import { and, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { type Executor, queryRows } from '../../db/client.js';
import { companies, companyDomains, redirectDomains, roles, userTypes } from '../../db/schema/index.js';
import type { CompanyRow } from './companies.repo.js';

export type VocabularyKind = 'domains' | 'userTypes' | 'roles' | 'redirectDomains';

interface VocabularyTable {
  table: PgTable;
  id: PgColumn;
  companyId: PgColumn;
  value: PgColumn;
  /** The row to insert for one value (the value column is `name` or `host`). */
  row: (companyId: number, value: string) => Record<string, unknown>;
  /** Whether a live user of the company still uses the entry (no check: removable at any time). */
  inUse?: (companyId: number, id: number, value: string) => SQL;
  /** Which unique index an insert may skip; every other conflict is raised. */
  conflictTarget?: PgColumn[];
}

const TABLES: Record<VocabularyKind, VocabularyTable> = {
  domains: {
    table: companyDomains,
    id: companyDomains.id,
    companyId: companyDomains.companyId,
    value: companyDomains.name,
    row: (companyId, name) => ({ companyId, name }),
    inUse: (companyId, id) =>
      sql`SELECT 1 AS n FROM users WHERE company_id = ${companyId} AND domain_id = ${id} AND deleted_at IS NULL LIMIT 1`,
    // Another company's domain violates company_domains_name_key: the caller reports it.
    conflictTarget: [companyDomains.companyId, companyDomains.name],
  },
  userTypes: {
    table: userTypes,
    id: userTypes.id,
    companyId: userTypes.companyId,
    value: userTypes.name,
    row: (companyId, name) => ({ companyId, name }),
    inUse: (companyId, id) =>
      sql`SELECT 1 AS n FROM users WHERE company_id = ${companyId} AND user_type_id = ${id} AND deleted_at IS NULL LIMIT 1`,
  },
  roles: {
    table: roles,
    id: roles.id,
    companyId: roles.companyId,
    value: roles.name,
    row: (companyId, name) => ({ companyId, name }),
    // A role held by a user, or saved for restoring after a suspension, is in use.
    inUse: (companyId, _id, name) =>
      sql`SELECT 1 AS n FROM users WHERE company_id = ${companyId} AND deleted_at IS NULL
          AND (${name} = ANY(roles) OR ${name} = ANY(COALESCE(suspended_roles, ARRAY[]::text[]))) LIMIT 1`,
  },
  redirectDomains: {
    table: redirectDomains,
    id: redirectDomains.id,
    companyId: redirectDomains.companyId,
    value: redirectDomains.host,
    row: (companyId, host) => ({ companyId, host }),
  },
};

export const vocabularyRepo = {
  async company(executor: Executor, companyId: number): Promise<CompanyRow | undefined> {
    const [company] = await executor.select().from(companies).where(eq(companies.id, companyId)).limit(1);
    return company;
  },

  /** Marks the company as changed (its profile's `updated_at`). */
  async touch(executor: Executor, companyId: number): Promise<void> {
    await executor.update(companies).set({ updatedAt: new Date() }).where(eq(companies.id, companyId));
  },

  /** Sets the operator switches; false when there is no such company. */
  async updateCompany(executor: Executor, companyId: number, values: { plan?: string; apiAccess?: boolean }): Promise<boolean> {
    const updated = await executor
      .update(companies)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(companies.id, companyId))
      .returning({ id: companies.id });
    return updated.length > 0;
  },

  /** The company's values of one kind, oldest first. */
  async list(executor: Executor, companyId: number, kind: VocabularyKind): Promise<string[]> {
    const t = TABLES[kind];
    const rows = await executor.select({ v: t.value }).from(t.table).where(eq(t.companyId, companyId)).orderBy(t.id);
    return rows.map((row) => row.v as string);
  },

  /** Adds values in one statement; values the company already has are left as they are. */
  async add(executor: Executor, companyId: number, kind: VocabularyKind, values: string[]): Promise<void> {
    const t = TABLES[kind];
    // `as never`: the four tables share the row shape `row` builds, which TypeScript cannot see.
    const rows = values.map((value) => t.row(companyId, value));
    await executor
      .insert(t.table)
      .values(rows as never)
      .onConflictDoNothing(t.conflictTarget && { target: t.conflictTarget });
  },

  /** Replaces all values of one kind (two statements; none inserted for an empty list). */
  async replace(executor: Executor, companyId: number, kind: VocabularyKind, values: string[]): Promise<void> {
    const t = TABLES[kind];
    await executor.delete(t.table).where(eq(t.companyId, companyId));
    if (values.length) await executor.insert(t.table).values(values.map((value) => t.row(companyId, value)) as never);
  },

  /** The entry's id, locked for the rest of the transaction. */
  async lockEntry(executor: Executor, companyId: number, kind: VocabularyKind, value: string): Promise<number | undefined> {
    const t = TABLES[kind];
    const [row] = await executor
      .select({ id: t.id })
      .from(t.table)
      .where(and(eq(t.companyId, companyId), eq(t.value, value)))
      .for('update');
    return row?.id as number | undefined;
  },

  /** Whether a live user of the company still uses the entry (always false for a kind without users). */
  async inUse(executor: Executor, companyId: number, kind: VocabularyKind, id: number, value: string): Promise<boolean> {
    const query = TABLES[kind].inUse;
    if (!query) return false;
    return (await queryRows<{ n: number }>(executor, query(companyId, id, value))).length > 0;
  },

  async deleteEntry(executor: Executor, kind: VocabularyKind, id: number): Promise<void> {
    const t = TABLES[kind];
    await executor.delete(t.table).where(eq(t.id, id));
  },

  /** Deletes the entry by value in one statement; false when the company had none. */
  async deleteValue(executor: Executor, companyId: number, kind: VocabularyKind, value: string): Promise<boolean> {
    const t = TABLES[kind];
    const removed = await executor
      .delete(t.table)
      .where(and(eq(t.companyId, companyId), eq(t.value, value)))
      .returning({ id: t.id });
    return removed.length > 0;
  },

  /** The first of these e-mail domains (any case) that another company already has, if any. */
  async domainTakenByOther(executor: Executor, companyId: number, hosts: string[]): Promise<string | undefined> {
    const [taken] = await executor
      .select({ name: companyDomains.name })
      .from(companyDomains)
      .where(and(inArray(sql`lower(${companyDomains.name})`, hosts), ne(companyDomains.companyId, companyId)))
      .limit(1);
    return taken?.name;
  },
};
