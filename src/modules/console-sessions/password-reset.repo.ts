// SQL of the console's password resets (migration 0240): the links, and the password they set.
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { users, webPasswordResets } from '../../db/schema/index.js';

export const passwordResetRepo = {
  async insert(executor: Executor, row: { tokenHash: string; companyId: number; userId: number; expiresAt: Date }): Promise<void> {
    await executor.insert(webPasswordResets).values(row);
  },

  async find(executor: Executor, tokenHash: string) {
    const [row] = await executor.select().from(webPasswordResets).where(eq(webPasswordResets.tokenHash, tokenHash)).limit(1);
    return row;
  },

  /** Uses the link: the conditional UPDATE is the check, so two submissions leave one winner. */
  async use(executor: Executor, tokenHash: string) {
    const [row] = await executor
      .update(webPasswordResets)
      .set({ usedAt: sql`now()` })
      .where(and(eq(webPasswordResets.tokenHash, tokenHash), isNull(webPasswordResets.usedAt), gt(webPasswordResets.expiresAt, sql`now()`)))
      .returning({ companyId: webPasswordResets.companyId, userId: webPasswordResets.userId });
    return row;
  },

  /** A new password ends every other open link of the user. */
  async useOthers(executor: Executor, companyId: number, userId: number): Promise<void> {
    await executor
      .update(webPasswordResets)
      .set({ usedAt: sql`now()` })
      .where(and(eq(webPasswordResets.companyId, companyId), eq(webPasswordResets.userId, userId), isNull(webPasswordResets.usedAt)));
  },

  async setPassword(executor: Executor, companyId: number, userId: number, passwordHash: string): Promise<boolean> {
    const rows = await executor
      .update(users)
      .set({ passwordHash, updatedAt: sql`now()` })
      .where(and(eq(users.companyId, companyId), eq(users.id, userId), isNull(users.deletedAt)))
      .returning({ id: users.id });
    return rows.length === 1;
  },
};
