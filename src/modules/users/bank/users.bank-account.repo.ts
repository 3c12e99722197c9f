// SQL of the bank-account verification (users.bank-account.service.ts).
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { users } from '../../../db/schema/index.js';

export const bankAccountRepo = {
  /**
   * Stores the resolved holder's name, only if the user still has the account that was resolved
   * (an update meanwhile would otherwise be marked verified with another account's name).
   */
  async storeResolvedName(
    executor: Executor,
    companyId: number,
    id: number,
    account: { bankCode: string; accountNumber: string; accountName: string },
  ): Promise<boolean> {
    const rows = await executor
      .update(users)
      .set({ accountName: account.accountName, bankAccountVerifiedAt: sql`now()`, updatedAt: sql`now()` })
      .where(
        and(
          eq(users.companyId, companyId),
          eq(users.id, id),
          isNull(users.deletedAt),
          eq(users.bankCode, account.bankCode),
          eq(users.accountNumber, account.accountNumber),
        ),
      )
      .returning({ id: users.id });
    return rows.length === 1;
  },
};
