// All SQL of contribution settings (S1-S3, the payroll run's settings). Company id first.
import { eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { companyTreeIds } from '../../db/company-tree.js';
import { contributionSettings } from '../../db/schema/index.js';

export type SettingsRow = typeof contributionSettings.$inferSelect;

export const settingsRepo = {
  async find(executor: Executor, companyId: number): Promise<SettingsRow | undefined> {
    const [row] = await executor.select().from(contributionSettings).where(eq(contributionSettings.companyId, companyId));
    return row;
  },

  /** The row, locked for the rest of the transaction (S3 validates against it, then writes). */
  async lock(executor: Executor, companyId: number): Promise<SettingsRow | undefined> {
    const [row] = await executor.select().from(contributionSettings).where(eq(contributionSettings.companyId, companyId)).for('update');
    return row;
  },

  /** The settings of the company and of every company below it, by company id. */
  async listTree(executor: Executor, companyId: number): Promise<SettingsRow[]> {
    const companyIds = await companyTreeIds(executor, companyId);
    if (companyIds.length === 0) return [];
    return executor
      .select()
      .from(contributionSettings)
      .where(inArray(contributionSettings.companyId, companyIds))
      .orderBy(contributionSettings.companyId);
  },

  async update(executor: Executor, companyId: number, changes: Partial<SettingsRow>): Promise<SettingsRow | undefined> {
    const [row] = await executor
      .update(contributionSettings)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(eq(contributionSettings.companyId, companyId))
      .returning();
    return row;
  },
};
