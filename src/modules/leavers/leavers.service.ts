// Leavers (docs/users.md, "Leavers"): recording an employee's exit and undoing it. Each action is one
// transaction: lock the user, decide (leavers.planner.ts), write the exit, end what the exit ends,
// record the webhook event and mark the Idempotency-Key, so the exit and its announcement commit or
// vanish together.
import type { Db, Tx } from '../../db/client.js';
import { endConsoleSessions } from '../../platform/auth/console-access.js';
import { invalid, notFound } from '../../platform/errors.js';
import { lagosDate } from '../../platform/format.js';
import { markIdempotentChange } from '../../platform/idempotency-claims.js';
import { announceUsers, superAdminStays } from '../users/index.js';
import { type PlannedExit, planReinstate, planTerminate } from './leavers.planner.js';
import { leaversRepo } from './leavers.repo.js';

export const USER_NOT_FOUND = 'User not found.';
export const LEAVER_ANSWERS = { terminated: 'User terminated successfully.', reinstated: 'User reinstated successfully.' } as const;

/** The User object as U2 shows it (the users module's service, passed in by createModules). */
export interface UserReader {
  show(companyId: number, id: number, mayGrantConsoleAccess?: boolean): Promise<unknown>;
}

/**
 * A step that runs inside terminate's transaction once the exit is written, before the event is
 * recorded: `final_pay` (the off-cycle draft with the leaver's items, docs/users.md, "Leavers") is
 * created by a step the payroll-runs module hands to createLeaversModule. It gets the whole request
 * body, so it reads its own field; what it returns joins the answer (`final_pay_run`). A step that
 * throws rolls the exit back with it.
 */
export type TerminateStep = (
  tx: Tx,
  exit: { companyId: number; userId: number; body: Record<string, unknown> } & PlannedExit,
) => Promise<Record<string, unknown> | undefined>;

/** A step of reinstate's transaction, before the exit is cleared (the final-pay draft is cancelled). */
export type ReinstateStep = (tx: Tx, companyId: number, userId: number) => Promise<void>;

export function createLeaversService(deps: {
  db: Db;
  users: UserReader;
  terminateSteps?: readonly TerminateStep[];
  reinstateSteps?: readonly ReinstateStep[];
}) {
  const { db, users } = deps;
  const steps = deps.terminateSteps ?? [];
  const undoSteps = deps.reinstateSteps ?? [];

  const answer = async (message: string, companyId: number, id: number, mayGrantConsoleAccess: boolean) => ({
    message,
    user: await users.show(companyId, id, mayGrantConsoleAccess),
  });

  return {
    /** Checks a terminate request without writing anything: the console's confirm step shows what will be recorded. */
    async check(companyId: number, id: number, body: Record<string, unknown>): Promise<PlannedExit> {
      const user = await leaversRepo.user(db, companyId, id, false);
      if (!user) throw notFound(USER_NOT_FOUND);
      const stays = user.roles.includes('super-admin') ? await superAdminStays(db, companyId, id) : true;
      const plan = planTerminate(body, user, lagosDate(), stays);
      if (!plan.ok) throw invalid(plan.errors);
      return plan.value;
    },

    async terminate(companyId: number, id: number, body: Record<string, unknown>, mayGrantConsoleAccess = false) {
      const extra: Record<string, unknown> = {};
      await db.transaction(async (tx) => {
        const user = await leaversRepo.user(tx, companyId, id);
        if (!user) throw notFound(USER_NOT_FOUND);
        // As U5/U7's last-super-admin check, the other super-admins are read, not locked.
        const stays = user.roles.includes('super-admin') ? await superAdminStays(tx, companyId, id) : true;
        const plan = planTerminate(body, user, lagosDate(), stays);
        if (!plan.ok) throw invalid(plan.errors);
        const exit = plan.value;
        await leaversRepo.setExit(tx, companyId, id, exit);
        for (const step of steps) Object.assign(extra, await step(tx, { companyId, userId: id, body, ...exit }));
        // An exit dated in the past takes effect now: console sessions end with it, as deactivation
        // ends them. A future exit is enforced when sessions are next used (web/session.ts).
        if (exit.exitedNow) await endConsoleSessions(tx, companyId, [id]);
        await announceUsers(tx, companyId, [id], 'user.exited');
        await markIdempotentChange(tx, { kind: 'user', id });
      });
      return { ...(await answer(LEAVER_ANSWERS.terminated, companyId, id, mayGrantConsoleAccess)), ...extra };
    },

    async reinstate(companyId: number, id: number, mayGrantConsoleAccess = false) {
      await db.transaction(async (tx) => {
        const user = await leaversRepo.user(tx, companyId, id);
        if (!user) throw notFound(USER_NOT_FOUND);
        const covering = user.exitDate === null ? undefined : await leaversRepo.paidPaystubCovering(tx, companyId, id, user.exitDate);
        const plan = planReinstate(user, covering);
        if (!plan.ok) throw invalid(plan.errors);
        for (const step of undoSteps) await step(tx, companyId, id);
        await leaversRepo.clearExit(tx, companyId, id);
        await announceUsers(tx, companyId, [id], 'user.reinstated');
        await markIdempotentChange(tx, { kind: 'user', id });
      });
      return answer(LEAVER_ANSWERS.reinstated, companyId, id, mayGrantConsoleAccess);
    },

    /** The answer of an action whose Idempotency-Key outlived a crash (docs/decisions.md, "Idempotency-Key after a crash"). */
    async recover(message: string, companyId: number, id: number, mayGrantConsoleAccess: boolean) {
      try {
        return await answer(message, companyId, id, mayGrantConsoleAccess);
      } catch {
        return undefined;
      }
    },
  };
}

export type LeaversService = ReturnType<typeof createLeaversService>;
