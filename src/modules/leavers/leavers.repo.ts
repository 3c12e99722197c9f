// All SQL of leavers (docs/users.md, "Leavers"): the user's exit columns (0202_leavers.sql) and
// the one look at paystubs that reinstating needs. Company id first: another company's user is
// simply not found. Callers lock the row first (`user`) and decide; the writes only write.
import { and, desc, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { paystubs, users } from '../../db/schema/index.js';
import type { CoveringPaystub, LeaverUser } from './leavers.planner.js';

const ofCompany = (companyId: number, id: number) => and(eq(users.companyId, companyId), eq(users.id, id), isNull(users.deletedAt));

export const leaversRepo = {
  /** The live user's exit and what the rules read; `lock`ed for the rest of the transaction (the default). */
  async user(executor: Executor, companyId: number, id: number, lock = true): Promise<LeaverUser | undefined> {
    const query = executor
      .select({
        startDate: users.startDate,
        exitDate: users.exitDate,
        exitReason: users.exitReason,
        isActive: users.isActive,
        roles: users.roles,
      })
      .from(users)
      .where(ofCompany(companyId, id))
      .limit(1);
    const [row] = lock ? await query.for('update') : await query;
    return row;
  },

  async setExit(executor: Executor, companyId: number, id: number, exit: { exitDate: string; reason: string }): Promise<void> {
    await executor
      .update(users)
      .set({ exitDate: exit.exitDate, exitReason: exit.reason, updatedAt: sql`now()` })
      .where(ofCompany(companyId, id));
  },

  async clearExit(executor: Executor, companyId: number, id: number): Promise<void> {
    await executor.update(users).set({ exitDate: null, exitReason: null, updatedAt: sql`now()` }).where(ofCompany(companyId, id));
  },

  /**
   * The user's paystub whose period covers `date` and that is paid or being paid, the latest
   * period first (paystubs_user_period_end_idx: the user's periods ending on or after the date).
   */
  async paidPaystubCovering(executor: Executor, companyId: number, userId: number, date: string): Promise<CoveringPaystub | undefined> {
    const [row] = await executor
      .select({ status: paystubs.status, payPeriodStart: paystubs.payPeriodStart, payPeriodEnd: paystubs.payPeriodEnd })
      .from(paystubs)
      .where(
        and(
          eq(paystubs.companyId, companyId),
          eq(paystubs.userId, userId),
          gte(paystubs.payPeriodEnd, date),
          lte(paystubs.payPeriodStart, date),
          inArray(paystubs.status, ['paid', 'processing']),
        ),
      )
      .orderBy(desc(paystubs.payPeriodEnd))
      .limit(1);
    return row;
  },
};
