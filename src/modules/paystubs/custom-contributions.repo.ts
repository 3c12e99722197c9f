// All SQL of custom contributions and their targets. Every method takes companyId first.
import { and, asc, eq, getTableColumns, inArray, isNull, or, sql } from 'drizzle-orm';
import { type Executor, hotReads, queryRows } from '../../db/client.js';
import { preparedPerExecutor } from '../../db/prepared.js';
import { customContributionRecords, customContributions, customContributionTargets, users, userTypes } from '../../db/schema/index.js';

export type CustomContributionRow = typeof customContributions.$inferSelect;
export type TargetRow = typeof customContributionTargets.$inferSelect;
export type NewCustomContribution = Omit<typeof customContributions.$inferInsert, 'id' | 'companyId' | 'createdAt' | 'updatedAt'>;

/**
 * S6's two statements, named prepared statements on the hot-reads pool (db/client.ts `hotReads`):
 * the company's custom contributions, and their targets found through the company. They run one
 * after the other, on pooled connections outside any transaction: the targets are read in a later
 * snapshot than the contributions, so every listed contribution comes with its targets as of its
 * own write or newer (a contribution and its targets are written in one transaction). Run at once,
 * the targets' snapshot could be the older one and a contribution just created would show none.
 */
const preparedList = preparedPerExecutor((executor) =>
  executor
    .select()
    .from(customContributions)
    .where(eq(customContributions.companyId, sql.placeholder('companyId')))
    .orderBy(asc(customContributions.id))
    .prepare('custom_contributions_list'),
);
const preparedTargetsOfCompany = preparedPerExecutor((executor) =>
  executor
    .select({ ...getTableColumns(customContributionTargets) })
    .from(customContributionTargets)
    .innerJoin(customContributions, eq(customContributions.id, customContributionTargets.customContributionId))
    .where(eq(customContributions.companyId, sql.placeholder('companyId')))
    .orderBy(asc(customContributionTargets.id))
    .prepare('custom_contributions_list_targets'),
);

export const customContributionsRepo = {
  /** S6: the company's custom contributions by id, and the targets of the company's contributions by id. */
  async listWithTargets(executor: Executor, companyId: number): Promise<{ rows: CustomContributionRow[]; targets: TargetRow[] }> {
    const hot = hotReads(executor);
    const rows = await preparedList(hot).execute({ companyId });
    const targets = rows.length === 0 ? [] : await preparedTargetsOfCompany(hot).execute({ companyId });
    return { rows, targets };
  },

  async find(executor: Executor, companyId: number, id: number, lock = false): Promise<CustomContributionRow | undefined> {
    const query = executor
      .select()
      .from(customContributions)
      .where(and(eq(customContributions.companyId, companyId), eq(customContributions.id, id)));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  },

  async nameTaken(executor: Executor, companyId: number, name: string, exceptId?: number): Promise<boolean> {
    const rows = await queryRows<{ id: number }>(
      executor,
      sql`SELECT id FROM custom_contributions WHERE company_id = ${companyId} AND lower(name) = lower(${name})
          ${exceptId ? sql`AND id <> ${exceptId}` : sql``} LIMIT 1`,
    );
    return rows.length > 0;
  },

  async insert(executor: Executor, companyId: number, values: NewCustomContribution): Promise<CustomContributionRow> {
    const [row] = await executor
      .insert(customContributions)
      .values({ ...values, companyId })
      .returning();
    return row;
  },

  async update(executor: Executor, companyId: number, id: number, values: Partial<NewCustomContribution>): Promise<CustomContributionRow> {
    const [row] = await executor
      .update(customContributions)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(customContributions.companyId, companyId), eq(customContributions.id, id)))
      .returning();
    return row;
  },

  /** Run inside a transaction: deletes the contribution and unlinks its records. */
  async delete(executor: Executor, companyId: number, id: number): Promise<boolean> {
    const rows = await executor
      .delete(customContributions)
      .where(and(eq(customContributions.companyId, companyId), eq(customContributions.id, id)))
      .returning({ id: customContributions.id });
    if (rows.length === 0) return false;
    // Records already on paystubs stay, with their name and amounts; only the link goes.
    await executor
      .update(customContributionRecords)
      .set({ customContributionId: null })
      .where(eq(customContributionRecords.customContributionId, id));
    return true;
  },

  /** Targets of the given contributions (which the caller already scoped to its company). */
  async targets(executor: Executor, contributionIds: number[]): Promise<TargetRow[]> {
    if (contributionIds.length === 0) return [];
    return executor
      .select()
      .from(customContributionTargets)
      .where(inArray(customContributionTargets.customContributionId, contributionIds))
      .orderBy(asc(customContributionTargets.id));
  },

  async replaceTargets(executor: Executor, contributionId: number, userTypeIds: number[], userIds: number[]): Promise<void> {
    await executor.delete(customContributionTargets).where(eq(customContributionTargets.customContributionId, contributionId));
    const values = [
      ...userTypeIds.map((userTypeId) => ({ customContributionId: contributionId, userTypeId, userId: null })),
      ...userIds.map((userId) => ({ customContributionId: contributionId, userTypeId: null, userId })),
    ];
    if (values.length > 0) await executor.insert(customContributionTargets).values(values);
  },

  /** The company's user types with these names (case-insensitive). */
  async userTypesNamed(executor: Executor, companyId: number, names: string[]): Promise<{ id: number; name: string }[]> {
    if (names.length === 0) return [];
    const lower = names.map((name) => name.toLowerCase());
    return executor
      .select({ id: userTypes.id, name: userTypes.name })
      .from(userTypes)
      .where(and(eq(userTypes.companyId, companyId), inArray(sql`lower(${userTypes.name})`, lower)));
  },

  /** The company's non-deleted users whose company or personal e-mail is one of these. */
  async usersByEmail(
    executor: Executor,
    companyId: number,
    emails: string[],
  ): Promise<{ id: number; email: string; personalEmail: string }[]> {
    if (emails.length === 0) return [];
    const lower = emails.map((email) => email.toLowerCase());
    return executor
      .select({ id: users.id, email: users.email, personalEmail: users.personalEmail })
      .from(users)
      .where(
        and(
          eq(users.companyId, companyId),
          isNull(users.deletedAt),
          or(inArray(sql`lower(${users.email})`, lower), inArray(sql`lower(${users.personalEmail})`, lower)),
        ),
      );
  },
};
