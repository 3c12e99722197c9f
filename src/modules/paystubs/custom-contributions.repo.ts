// All SQL of custom contributions and their targets. Every method takes companyId first.
import { and, asc, eq, getTableColumns, inArray, isNull, or, sql } from 'drizzle-orm';
import { type Executor, hotReads, queryRows } from '../../db/client.js';
import { keyedRows, preparedPerExecutor, type TextTimestamps, withArrayRows } from '../../db/prepared.js';
import { customContributionRecords, customContributions, customContributionTargets, users, userTypes } from '../../db/schema/index.js';

export type CustomContributionRow = typeof customContributions.$inferSelect;
export type TargetRow = typeof customContributionTargets.$inferSelect;
export type NewCustomContribution = Omit<typeof customContributions.$inferInsert, 'id' | 'companyId' | 'createdAt' | 'updatedAt'>;

/**
 * S6 in one statement, a named prepared statement on the hot-reads pool (db/client.ts `hotReads`):
 * the company's custom contributions by id, each with its targets by id as one JSON array of
 * arrays, so a contribution and its targets come from one snapshot. Its rows come as arrays keyed
 * by the selection's order (db/prepared.ts `keyedRows`), timestamps as PostgreSQL's text. It was two
 * statements, each a round trip and a wake-up of the database (docs/benchmarks.md, "C1, I1 and S6").
 */
const LIST_KEYS = [...Object.keys(getTableColumns(customContributions)), 'targets'];
/** A target in the JSON array: id, custom_contribution_id, user_type_id, user_id, created_at, updated_at (text). */
type TargetTuple = [number, number, number | null, number | null, string, string];
const preparedList = preparedPerExecutor((executor) =>
  withArrayRows(
    executor
      .select({
        ...getTableColumns(customContributions),
        targets: sql<TargetTuple[]>`(SELECT coalesce(json_agg(json_build_array(t.id, t.custom_contribution_id, t.user_type_id, t.user_id,
            t.created_at::text, t.updated_at::text) ORDER BY t.id), '[]'::json)
          FROM custom_contribution_targets t WHERE t.custom_contribution_id = custom_contributions.id)`,
      })
      .from(customContributions)
      .where(eq(customContributions.companyId, sql.placeholder('companyId')))
      .orderBy(asc(customContributions.id))
      .prepare('custom_contributions_with_targets'),
  ),
);

export const customContributionsRepo = {
  /** S6: the company's custom contributions by id, and the targets of the company's contributions by id. */
  async listWithTargets(
    executor: Executor,
    companyId: number,
  ): Promise<{ rows: TextTimestamps<CustomContributionRow>[]; targets: TextTimestamps<TargetRow>[] }> {
    const listed = keyedRows<TextTimestamps<CustomContributionRow> & { targets: TargetTuple[] }>(
      LIST_KEYS,
      await preparedList(hotReads(executor)).execute({ companyId }),
    );
    const targets = listed.flatMap(({ targets }) =>
      targets.map(([id, customContributionId, userTypeId, userId, createdAt, updatedAt]) => ({
        id,
        customContributionId,
        userTypeId,
        userId,
        createdAt,
        updatedAt,
      })),
    );
    return { rows: listed.map(({ targets: _, ...row }) => row), targets };
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
