// All SQL of the companies feature. A company is reached through the company acting on it: every
// read takes the acting company's id first and finds only companies strictly below it in the
// `created_by` tree, so anything else is simply "not found".
import crypto from 'node:crypto';
import { and, asc, count, eq, getTableColumns, ne, or, sql } from 'drizzle-orm';
import { type Executor, hotReads, queryRows } from '../../db/client.js';
import { companyRelation } from '../../db/company-tree.js';
import { keyedRows, preparedPerExecutor, type TextTimestamps, withArrayRows } from '../../db/prepared.js';
import { companies, companyDomains, contributionSettings, redirectDomains, roles, users, userTypes } from '../../db/schema/index.js';

export type CompanyRow = typeof companies.$inferSelect;

export interface SuperAdminInput {
  firstName: string;
  lastName: string;
  personalEmail: string;
  title: string;
  emailLocal: string;
}

const ONBOARDING_DAYS = 7;

/** A company as C1's page reads it: timestamps as PostgreSQL's text, the rest as the driver parses it. */
export type ListedCompanyRow = TextTimestamps<CompanyRow>;

/**
 * C1's page carrying its total (one statement, one round trip), a named prepared statement on the
 * hot-reads pool (db/client.ts `hotReads`: a page with `LIMIT $n OFFSET $m` keeps its generic plan
 * there instead of being planned again on every execution). One shape whatever the request. Its
 * rows come as arrays (db/prepared.ts `withArrayRows`, `keyedRows`), keyed by the selection's order:
 * Drizzle's own mapping (a decoder call per column, a Date parsed per timestamp) was about a sixth of
 * the server's CPU per page (docs/benchmarks.md, "C1, I1 and S6").
 */
const PAGE_KEYS = [...Object.keys(getTableColumns(companies)), 'total'];
const preparedPage = preparedPerExecutor((executor) => {
  const createdBy = eq(companies.createdBy, sql.placeholder('ownerId'));
  return withArrayRows(
    executor
      .select({ ...getTableColumns(companies), total: sql<number | null>`(SELECT count(*) FROM ${companies} WHERE ${createdBy})` })
      .from(companies)
      .where(createdBy)
      .orderBy(asc(companies.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare('companies_page'),
  );
});

export const companiesRepo = {
  /**
   * Companies whose `created_by` is `ownerId` (C1), ordered by id, and their number. An empty page
   * (past the end, or no companies) has no row to carry the total: it is counted on its own.
   */
  async pageCreatedBy(
    executor: Executor,
    ownerId: number,
    offset: number,
    limit: number,
  ): Promise<{ rows: ListedCompanyRow[]; total: number }> {
    const rows = keyedRows<ListedCompanyRow & { total: number | null }>(
      PAGE_KEYS,
      await preparedPage(hotReads(executor)).execute({ ownerId, offset, limit }),
    );
    return { rows, total: rows[0]?.total ?? (await companiesRepo.countCreatedBy(executor, ownerId)) };
  },

  /** Every company of the database, across tenants: only the demo seed's first-run check asks. */
  async countAll(executor: Executor): Promise<number> {
    const [row] = await executor.select({ value: count() }).from(companies);
    return row.value;
  },

  async countCreatedBy(executor: Executor, ownerId: number): Promise<number> {
    const [row] = await executor.select({ value: count() }).from(companies).where(eq(companies.createdBy, ownerId));
    return row.value;
  },

  /** True when `actingId` is one of the ancestors (parent, grandparent, ...) of company `id`. */
  async isDescendant(executor: Executor, actingId: number, id: number): Promise<boolean> {
    return (await companyRelation(executor, actingId, id)) === 'descendant';
  },

  /** The company `id` when `actingId` is one of its ancestors. */
  async findDescendant(executor: Executor, actingId: number, id: number, forUpdate = false): Promise<CompanyRow | undefined> {
    if (!(await companiesRepo.isDescendant(executor, actingId, id))) return undefined;
    const query = executor.select().from(companies).where(eq(companies.id, id));
    const [row] = forUpdate ? await query.for('update') : await query;
    return row;
  },

  /** The company codes equal to `base` or `base` followed by digits (a new company's code). */
  async codesLike(executor: Executor, base: string): Promise<string[]> {
    const rows = await executor
      .select({ code: companies.code })
      .from(companies)
      .where(or(eq(companies.code, base), sql`${companies.code} ~ ${`^${base}[0-9]+$`}`));
    return rows.map((row) => row.code);
  },

  /**
   * The company row with the first free code of `base`, `base2`, `base3`, ... (docs/security.md,
   * company codes). The insert skips a code that is taken, even by a concurrent transaction not yet
   * committed (PostgreSQL waits for it, then reports the conflict): the next suffix is tried in the
   * same transaction, so two creates of similar names at the same moment never fail on the code.
   * A clash on any other unique value (domain, registration id) still raises.
   */
  async insertWithFreeCode(executor: Executor, values: Omit<typeof companies.$inferInsert, 'code'>, base: string): Promise<CompanyRow> {
    const used = new Set(await companiesRepo.codesLike(executor, base));
    for (let n = 1; ; n++) {
      const code = n === 1 ? base : `${base}${n}`;
      if (used.has(code)) continue;
      const [row] = await executor
        .insert(companies)
        .values({ ...values, code })
        .onConflictDoNothing({ target: companies.code })
        .returning();
      if (row) return row;
      used.add(code);
    }
  },

  /**
   * A new company with its primary e-mail domain, user types, roles, redirect hosts and default
   * contribution settings: one statement per table, inside the caller's transaction. The company
   * row is `values` with `code`, or else with the first free code derived from `codeBase`.
   */
  async insertWithVocabulary(
    executor: Executor,
    values: Omit<typeof companies.$inferInsert, 'code'>,
    code: { code: string } | { codeBase: string },
    vocabulary: { userTypes: string[]; roles: string[]; redirectDomains: string[] },
  ): Promise<CompanyRow> {
    const company =
      'code' in code
        ? (
            await executor
              .insert(companies)
              .values({ ...values, code: code.code })
              .returning()
          )[0]
        : await companiesRepo.insertWithFreeCode(executor, values, code.codeBase);
    const companyId = company.id;
    await executor.insert(companyDomains).values({ companyId, name: company.domain });
    await executor.insert(userTypes).values(vocabulary.userTypes.map((name) => ({ companyId, name })));
    await executor.insert(roles).values(vocabulary.roles.map((name) => ({ companyId, name })));
    if (vocabulary.redirectDomains.length) {
      await executor.insert(redirectDomains).values(vocabulary.redirectDomains.map((host) => ({ companyId, host })));
    }
    await executor.insert(contributionSettings).values({ companyId });
    return company;
  },

  /** Which of the unique values of a new or changed company are already taken by another company. */
  async takenCompanyValues(
    executor: Executor,
    values: { domain?: string; registrationId?: string | null; code?: string },
    exceptId?: number,
  ): Promise<{ domain: boolean; registrationId: boolean; code: boolean }> {
    const conditions = [];
    if (values.domain !== undefined) conditions.push(eq(companies.domain, values.domain));
    if (values.registrationId) conditions.push(eq(companies.registrationId, values.registrationId));
    if (values.code !== undefined) conditions.push(eq(companies.code, values.code));
    const result = { domain: false, registrationId: false, code: false };
    // Extra e-mail domains count too: every domain belongs to one company at most.
    if (values.domain !== undefined) {
      const owners = await executor
        .select({ companyId: companyDomains.companyId })
        .from(companyDomains)
        .where(sql`lower(${companyDomains.name}) = ${values.domain.toLowerCase()}`);
      result.domain = owners.some((owner) => owner.companyId !== exceptId);
    }
    if (conditions.length === 0) return result;
    const rows = await executor
      .select({ domain: companies.domain, registrationId: companies.registrationId, code: companies.code })
      .from(companies)
      .where(and(or(...conditions), exceptId === undefined ? undefined : ne(companies.id, exceptId)));
    for (const row of rows) {
      if (values.domain !== undefined && row.domain === values.domain) result.domain = true;
      if (values.registrationId && row.registrationId === values.registrationId) result.registrationId = true;
      if (values.code !== undefined && row.code === values.code) result.code = true;
    }
    return result;
  },

  /**
   * True when any non-deleted user of any company has this personal e-mail. Takes a transaction
   * lock on the address first so that two concurrent C2 calls cannot both see it as free.
   */
  async lockAndCheckPersonalEmail(tx: Executor, personalEmail: string): Promise<boolean> {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`personal_email:${personalEmail.toLowerCase()}`}))`);
    return companiesRepo.personalEmailTaken(tx, personalEmail);
  },

  /** True when any non-deleted user of any company has this personal e-mail (any case). */
  async personalEmailTaken(executor: Executor, personalEmail: string): Promise<boolean> {
    const rows = await queryRows<{ taken: boolean }>(
      executor,
      sql`SELECT EXISTS (SELECT 1 FROM users WHERE lower(personal_email) = ${personalEmail.toLowerCase()} AND deleted_at IS NULL) AS taken`,
    );
    return rows[0]?.taken === true;
  },

  async update(executor: Executor, id: number, values: Partial<typeof companies.$inferInsert>): Promise<CompanyRow> {
    const [row] = await executor
      .update(companies)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(companies.id, id))
      .returning();
    return row;
  },

  /**
   * Makes a (new) company domain usable for employee e-mails; existing domains stay. A domain
   * another company holds violates `company_domains_name_key` (the caller turns that into its
   * "already taken" error); the company's own domain is left as it is.
   */
  async addDomain(executor: Executor, companyId: number, domain: string): Promise<void> {
    await executor
      .insert(companyDomains)
      .values({ companyId, name: domain })
      .onConflictDoNothing({ target: [companyDomains.companyId, companyDomains.name] });
  },

  /** C5/C6: one conditional statement; activation also approves a company pending review. */
  async setActive(executor: Executor, id: number, active: boolean): Promise<CompanyRow | undefined> {
    const [row] = await executor
      .update(companies)
      .set(
        active
          ? {
              isActive: true,
              status: sql`CASE WHEN ${companies.status} = 'pending review' THEN 'approved' ELSE ${companies.status} END`,
              updatedAt: new Date(),
            }
          : { isActive: false, updatedAt: new Date() },
      )
      .where(eq(companies.id, id))
      .returning();
    return row;
  },

  /**
   * The super admin of a new company (C2): inactive, invited, employee number 1 of the company's
   * sequence, company e-mail `first.last@domain` (a number is added if the address exists anywhere).
   */
  async createSuperAdmin(tx: Executor, company: CompanyRow, input: SuperAdminInput) {
    const [{ seq }] = await queryRows<{ seq: number }>(
      tx,
      sql`UPDATE companies SET employee_seq = employee_seq + 1 WHERE id = ${company.id} RETURNING employee_seq AS seq`,
    );
    const [domain] = await tx
      .select({ id: companyDomains.id })
      .from(companyDomains)
      .where(and(eq(companyDomains.companyId, company.id), eq(companyDomains.name, company.domain)));
    const [type] = await tx
      .select({ id: userTypes.id })
      .from(userTypes)
      .where(and(eq(userTypes.companyId, company.id), eq(userTypes.name, 'Full-time')));
    const email = await freeEmail(tx, input.emailLocal, company.domain);
    const onboardingToken = crypto.randomBytes(32).toString('base64url');
    const [user] = await tx
      .insert(users)
      .values({
        companyId: company.id,
        employeeId: `${company.code}-${String(seq).padStart(4, '0')}`,
        firstName: input.firstName,
        lastName: input.lastName,
        email,
        personalEmail: input.personalEmail,
        uniqueId: crypto.randomBytes(12).toString('base64url'),
        userTypeId: type?.id ?? null,
        domainId: domain?.id ?? null,
        title: input.title,
        paymentFrequency: company.paymentFrequency,
        onboardingToken,
        tokenExpiresAt: new Date(Date.now() + ONBOARDING_DAYS * 86_400_000),
        onboardingCompleted: false,
        roles: ['super-admin'],
        isActive: false,
      })
      .returning();
    return user;
  },
};

/** `local@domain`, or `local2@domain`, `local3@domain`, ... when taken by any non-deleted user. */
async function freeEmail(executor: Executor, local: string, domain: string): Promise<string> {
  const escapeRegex = (text: string) => text.replace(/[.\\+*?^$()[\]{}|-]/g, '\\$&');
  const rows = await queryRows<{ email: string }>(
    executor,
    sql`SELECT email FROM users WHERE deleted_at IS NULL AND (email = ${`${local}@${domain}`} OR email ~ ${`^${escapeRegex(local)}[0-9]+@${escapeRegex(domain)}$`})`,
  );
  const taken = new Set(rows.map((row) => row.email));
  if (!taken.has(`${local}@${domain}`)) return `${local}@${domain}`;
  for (let n = 2; ; n++) if (!taken.has(`${local}${n}@${domain}`)) return `${local}${n}@${domain}`;
}
