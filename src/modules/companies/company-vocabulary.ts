// A company's vocabulary: the e-mail domains, user types, roles and wallet redirect hosts it may use,
// plus the two operator switches (plan, API access). Shared by the operator API (/admin), the CLI and
// the web console so that every path applies the same validation and the same "in use" protection.
import { isIPv4 } from 'node:net';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { type Db, type Executor, queryRows } from '../../db/client.js';
import { companies, companyDomains, redirectDomains, roles, userTypes } from '../../db/schema/index.js';
import type { AuthCache } from '../../platform/auth/authenticate.js';
import { conflict, invalid, notFound } from '../../platform/errors.js';

export const PLANS = ['standard', 'premium', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export interface CompanyProfile {
  company: typeof companies.$inferSelect;
  domains: string[];
  userTypes: string[];
  roles: string[];
  redirectDomains: string[];
}

// RFC 1123 host names: labels of 1-63 letters/digits/hyphens, no leading/trailing hyphen, at most
// 253 characters. E-mail domains need at least one dot; redirect hosts may also be `localhost` or an
// IPv4 address (developers point top-up redirects at a local page).
const LABEL = '(?!-)[a-z0-9-]{1,63}(?<!-)';
const DOTTED_HOST = new RegExp(`^${LABEL}(\\.${LABEL})+$`);
const NAME_MAX = 100;

export function normalizeHost(value: string): string {
  return value.trim().toLowerCase().replace(/\.$/, '');
}

export function isValidDomain(host: string): boolean {
  return host.length <= 253 && DOTTED_HOST.test(host) && !/^[0-9.]+$/.test(host);
}

export function isValidRedirectHost(host: string): boolean {
  return host === 'localhost' || isIPv4(host) || isValidDomain(host);
}

/** Trims, lower-cases and validates host names; all failures are reported together under `field`. */
export function normalizeHosts(values: readonly string[], field: string, valid: (host: string) => boolean): string[] {
  const hosts: string[] = [];
  const errors: string[] = [];
  for (const value of values) {
    const host = typeof value === 'string' ? normalizeHost(value) : '';
    if (!valid(host)) errors.push(`"${String(value)}" is not a valid host name.`);
    else if (!hosts.includes(host)) hosts.push(host);
  }
  if (errors.length) throw invalid({ [field]: errors });
  return hosts;
}

/** User type and role names: trimmed, 1-100 printable characters, duplicates dropped. */
export function normalizeNames(values: readonly string[], field: string): string[] {
  const names: string[] = [];
  const errors: string[] = [];
  for (const value of values) {
    const name = typeof value === 'string' ? value.trim() : '';
    // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point.
    if (!name || name.length > NAME_MAX || /[\u0000-\u001f\u007f]/.test(name)) {
      errors.push(`"${String(value)}" must be 1 to ${NAME_MAX} printable characters.`);
    } else if (!names.includes(name)) names.push(name);
  }
  if (errors.length) throw invalid({ [field]: errors });
  return names;
}

export function createCompanyVocabularyService(deps: { db: Db; authCache: AuthCache }) {
  const { db, authCache } = deps;

  async function requireCompany(executor: Executor, companyId: number) {
    const [company] = await executor.select().from(companies).where(eq(companies.id, companyId)).limit(1);
    if (!company) throw notFound('Company not found.');
    return company;
  }

  async function touch(executor: Executor, companyId: number) {
    await executor.update(companies).set({ updatedAt: new Date() }).where(eq(companies.id, companyId));
  }

  async function profile(companyId: number, executor: Executor = db): Promise<CompanyProfile> {
    const company = await requireCompany(executor, companyId);
    const [domainRows, typeRows, roleRows, redirectRows] = await Promise.all([
      executor
        .select({ v: companyDomains.name })
        .from(companyDomains)
        .where(eq(companyDomains.companyId, companyId))
        .orderBy(companyDomains.id),
      executor.select({ v: userTypes.name }).from(userTypes).where(eq(userTypes.companyId, companyId)).orderBy(userTypes.id),
      executor.select({ v: roles.name }).from(roles).where(eq(roles.companyId, companyId)).orderBy(roles.id),
      executor
        .select({ v: redirectDomains.host })
        .from(redirectDomains)
        .where(eq(redirectDomains.companyId, companyId))
        .orderBy(redirectDomains.id),
    ]);
    return {
      company,
      domains: domainRows.map((r) => r.v),
      userTypes: typeRows.map((r) => r.v),
      roles: roleRows.map((r) => r.v),
      redirectDomains: redirectRows.map((r) => r.v),
    };
  }

  /**
   * Adds e-mail domains. A domain another company already uses (as its primary domain or an extra
   * one) is refused: company e-mails are globally unique, so two companies sharing a domain would
   * steal each other's addresses.
   */
  async function addDomains(companyId: number, values: readonly string[], executor?: Executor): Promise<string[]> {
    const hosts = normalizeHosts(values, 'domains', isValidDomain);
    if (!hosts.length) return [];
    const run = async (tx: Executor) => {
      await requireCompany(tx, companyId);
      const taken = await tx
        .select({ name: companyDomains.name })
        .from(companyDomains)
        .where(and(inArray(companyDomains.name, hosts), ne(companyDomains.companyId, companyId)))
        .union(
          tx
            .select({ name: companies.domain })
            .from(companies)
            .where(and(inArray(companies.domain, hosts), ne(companies.id, companyId))),
        );
      if (taken.length) throw conflict(`The domain ${taken[0].name} is already used by another company.`);
      await tx
        .insert(companyDomains)
        .values(hosts.map((name) => ({ companyId, name })))
        .onConflictDoNothing();
      await touch(tx, companyId);
      return hosts;
    };
    return executor ? run(executor) : db.transaction(run);
  }

  async function removeDomain(companyId: number, value: string): Promise<void> {
    const host = normalizeHost(value);
    await db.transaction(async (tx) => {
      const company = await requireCompany(tx, companyId);
      const [row] = await tx
        .select({ id: companyDomains.id })
        .from(companyDomains)
        .where(and(eq(companyDomains.companyId, companyId), eq(companyDomains.name, host)))
        .for('update');
      if (!row) throw notFound('Domain not found.');
      if (company.domain === host) throw conflict(`The domain ${host} is the company's primary domain and cannot be removed.`);
      const inUse = await queryRows<{ n: number }>(
        tx,
        sql`SELECT 1 AS n FROM users WHERE company_id = ${companyId} AND domain_id = ${row.id} AND deleted_at IS NULL LIMIT 1`,
      );
      if (inUse.length) throw conflict(`The domain ${host} is used by users of this company and cannot be removed.`);
      await tx.delete(companyDomains).where(eq(companyDomains.id, row.id));
      await touch(tx, companyId);
    });
  }

  async function addUserTypes(companyId: number, values: readonly string[], executor?: Executor): Promise<string[]> {
    const names = normalizeNames(values, 'user_types');
    if (!names.length) return [];
    const run = async (tx: Executor) => {
      await requireCompany(tx, companyId);
      await tx
        .insert(userTypes)
        .values(names.map((name) => ({ companyId, name })))
        .onConflictDoNothing();
      await touch(tx, companyId);
      return names;
    };
    return executor ? run(executor) : db.transaction(run);
  }

  async function removeUserType(companyId: number, value: string): Promise<void> {
    const name = value.trim();
    await db.transaction(async (tx) => {
      await requireCompany(tx, companyId);
      const [row] = await tx
        .select({ id: userTypes.id })
        .from(userTypes)
        .where(and(eq(userTypes.companyId, companyId), eq(userTypes.name, name)))
        .for('update');
      if (!row) throw notFound('User type not found.');
      const inUse = await queryRows<{ n: number }>(
        tx,
        sql`SELECT 1 AS n FROM users WHERE company_id = ${companyId} AND user_type_id = ${row.id} AND deleted_at IS NULL LIMIT 1`,
      );
      if (inUse.length) throw conflict(`The user type ${name} is assigned to users of this company and cannot be removed.`);
      await tx.delete(userTypes).where(eq(userTypes.id, row.id));
      await touch(tx, companyId);
    });
  }

  async function addRoles(companyId: number, values: readonly string[], executor?: Executor): Promise<string[]> {
    const names = normalizeNames(values, 'roles');
    if (!names.length) return [];
    const run = async (tx: Executor) => {
      await requireCompany(tx, companyId);
      await tx
        .insert(roles)
        .values(names.map((name) => ({ companyId, name })))
        .onConflictDoNothing();
      await touch(tx, companyId);
      return names;
    };
    return executor ? run(executor) : db.transaction(run);
  }

  /** A role held by a user, or saved for restoring after a suspension, is in use. */
  async function removeRole(companyId: number, value: string): Promise<void> {
    const name = value.trim();
    await db.transaction(async (tx) => {
      await requireCompany(tx, companyId);
      const [row] = await tx
        .select({ id: roles.id })
        .from(roles)
        .where(and(eq(roles.companyId, companyId), eq(roles.name, name)))
        .for('update');
      if (!row) throw notFound('Role not found.');
      const inUse = await queryRows<{ n: number }>(
        tx,
        sql`SELECT 1 AS n FROM users WHERE company_id = ${companyId} AND deleted_at IS NULL
            AND (${name} = ANY(roles) OR ${name} = ANY(COALESCE(suspended_roles, ARRAY[]::text[]))) LIMIT 1`,
      );
      if (inUse.length) throw conflict(`The role ${name} is held by users of this company and cannot be removed.`);
      await tx.delete(roles).where(eq(roles.id, row.id));
      await touch(tx, companyId);
    });
  }

  async function addRedirectDomains(companyId: number, values: readonly string[], executor?: Executor): Promise<string[]> {
    const hosts = normalizeHosts(values, 'redirect_domains', isValidRedirectHost);
    if (!hosts.length) return [];
    const run = async (tx: Executor) => {
      await requireCompany(tx, companyId);
      await tx
        .insert(redirectDomains)
        .values(hosts.map((host) => ({ companyId, host })))
        .onConflictDoNothing();
      await touch(tx, companyId);
      return hosts;
    };
    return executor ? run(executor) : db.transaction(run);
  }

  async function removeRedirectDomain(companyId: number, value: string): Promise<void> {
    const host = normalizeHost(value);
    await db.transaction(async (tx) => {
      await requireCompany(tx, companyId);
      const removed = await tx
        .delete(redirectDomains)
        .where(and(eq(redirectDomains.companyId, companyId), eq(redirectDomains.host, host)))
        .returning({ id: redirectDomains.id });
      if (!removed.length) throw notFound('Redirect domain not found.');
      await touch(tx, companyId);
    });
  }

  /** Replaces the whole list (the operator API's `redirect_domains`); an empty list clears it. */
  async function setRedirectDomains(companyId: number, values: readonly string[], executor?: Executor): Promise<string[]> {
    const hosts = normalizeHosts(values, 'redirect_domains', isValidRedirectHost);
    const run = async (tx: Executor) => {
      await requireCompany(tx, companyId);
      await tx.delete(redirectDomains).where(eq(redirectDomains.companyId, companyId));
      if (hosts.length) await tx.insert(redirectDomains).values(hosts.map((host) => ({ companyId, host })));
      await touch(tx, companyId);
      return hosts;
    };
    return executor ? run(executor) : db.transaction(run);
  }

  async function setPlan(companyId: number, plan: Plan, executor: Executor = db): Promise<void> {
    if (!(PLANS as readonly string[]).includes(plan)) throw invalid({ plan: ['The selected plan is invalid.'] });
    const updated = await executor
      .update(companies)
      .set({ plan, updatedAt: new Date() })
      .where(eq(companies.id, companyId))
      .returning({ id: companies.id });
    if (!updated.length) throw notFound('Company not found.');
    // The plan picks the global rate-limit bucket, read with the token: apply it at once.
    authCache.clear();
  }

  async function setApiAccess(companyId: number, enabled: boolean, executor: Executor = db): Promise<void> {
    const updated = await executor
      .update(companies)
      .set({ apiAccess: enabled, updatedAt: new Date() })
      .where(eq(companies.id, companyId))
      .returning({ id: companies.id });
    if (!updated.length) throw notFound('Company not found.');
    authCache.clear();
  }

  return {
    profile,
    addDomains,
    removeDomain,
    addUserTypes,
    removeUserType,
    addRoles,
    removeRole,
    addRedirectDomains,
    removeRedirectDomain,
    setRedirectDomains,
    setPlan,
    setApiAccess,
  };
}

export type CompanyVocabularyService = ReturnType<typeof createCompanyVocabularyService>;
