// Single-user actions of U3-U7 on top of the shared batch cores (create/update) and the repo.
import type { Config } from '../../config.js';
import type { Db, Executor } from '../../db/client.js';
import { recordAudit } from '../../platform/audit/index.js';
import { consoleAccessDenied, endConsoleSessions } from '../../platform/auth/console-access.js';
import { DomainError, forbidden, invalid, notFound } from '../../platform/errors.js';
import { isoTimestamp, lagosDate } from '../../platform/format.js';
import { markIdempotentChange } from '../../platform/idempotency-claims.js';
import type { Mailer } from '../../platform/mail/outbox.js';
import { recordEvent } from '../webhooks/index.js';
import { createUsers } from './create/users.create.service.js';
import { checkCreate, checkUpdate } from './fields/users.fields.validation.js';
import { isExited } from './lifecycle/users.exit.repo.js';
import { lifecycleRepo } from './lifecycle/users.lifecycle.repo.js';
import { hashPassword, validatePassword } from './lifecycle/users.passwords.rules.js';
import { checkDocuments, deleteDocuments, storeDocuments, type UploadedFile } from './update/users.documents.service.js';
import { updateUsers } from './update/users.update.service.js';
import { announceUsers, snapshotUsers } from './users.events.js';
import { USER_ROW as at, type UserFlatRow } from './users.flat-row.repo.js';
import { companyName } from './users.lookup.repo.js';
import { activatedMail } from './users.mail.js';
import type { UserRow, UserWithNames } from './users.repo.js';
import { usersRepo } from './users.repo.js';
import { serializeUser, serializeUserRow } from './users.serializer.js';

export const USER_NOT_FOUND = 'User not found.';

export interface ActionDeps {
  db: Db;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl' | 'dataDir'>;
}

/**
 * Turns one batch result into U3's/U4's error: 400 `{error}`, 422 `{error: {field: [...]}}`, or the
 * scope 403 when the token may not hand out console access (docs/users.md).
 */
function failure(status: number, errors: Record<string, string[]>): DomainError {
  if (status === 404) return notFound(USER_NOT_FOUND);
  if (status === 403) return consoleAccessDenied();
  if (status === 400) return new DomainError('bad_request', Object.values(errors)[0][0]);
  return invalid(errors);
}

/** U3's answer from the flat row its insert returned (create/users.create.repo.ts insertMany with `names`): the same fields as createdAnswer. */
function createdAnswerOfRow(row: UserFlatRow) {
  return {
    message: 'User created successfully',
    user: {
      id: row[at.id] as number,
      first_name: row[at.firstName] as string,
      last_name: row[at.lastName] as string,
      email: row[at.email] as string,
      personal_email: row[at.personalEmail] as string,
      company_id: row[at.companyId] as number,
      title: row[at.title] as string | null,
      department: row[at.department] as string | null,
      manager_id: row[at.managerId] as number | null,
      employee_id: row[at.employeeId] as string,
      unique_id: row[at.uniqueId] as string,
      is_active: row[at.isActive] as boolean,
      onboarding_completed: row[at.onboardingCompleted] as boolean,
      created_at: isoTimestamp(row[at.createdAt] as string),
      updated_at: isoTimestamp(row[at.updatedAt] as string),
    },
  };
}

/** U3's answer (docs/users.md). */
function createdAnswer({ user }: UserWithNames) {
  return {
    message: 'User created successfully',
    user: {
      id: user.id,
      first_name: user.firstName,
      last_name: user.lastName,
      email: user.email,
      personal_email: user.personalEmail,
      company_id: user.companyId,
      title: user.title,
      department: user.department,
      manager_id: user.managerId,
      employee_id: user.employeeId,
      unique_id: user.uniqueId,
      is_active: user.isActive,
      onboarding_completed: user.onboardingCompleted,
      created_at: isoTimestamp(user.createdAt),
      updated_at: isoTimestamp(user.updatedAt),
    },
  };
}

export function createUserActions(deps: ActionDeps) {
  const { db } = deps;

  /** An active super-admin must remain: deactivating or deleting the last one is refused (403). An exited one is not active. */
  async function isLastSuperAdmin(tx: Executor, companyId: number, user: UserRow): Promise<boolean> {
    const today = lagosDate();
    if (!user.isActive || isExited(user.exitDate, today) || !user.roles.includes('super-admin')) return false;
    return !(await lifecycleRepo.otherActiveSuperAdmin(tx, companyId, user.id, today));
  }

  async function live(companyId: number, id: number) {
    const row = await usersRepo.findById(db, companyId, id);
    if (!row) throw notFound(USER_NOT_FOUND);
    return row;
  }

  return {
    /** `mayGrantConsoleAccess`: the caller's token has `all` (docs/users.md, "Console roles through the API"). */
    async create(companyId: number, body: Record<string, unknown>, mayGrantConsoleAccess: boolean) {
      const checked = checkCreate(body);
      if (!checked.ok) throw invalid(checked.errors);
      // The new user's row comes back from its insert (withRows): it is what the transaction
      // committed, so the event and the answer are built from it, and the event's statement is
      // skipped when no endpoint could hear of it (docs/users.md, "Performance notes"). A re-invite
      // (no insert) reads the user as before.
      let made: UserFlatRow | undefined;
      const [result] = await createUsers(
        deps,
        companyId,
        [checked.value],
        false,
        mayGrantConsoleAccess,
        async (tx, [done], context) => {
          if (!done.ok) return;
          const id = done.id as number;
          made = context.rows.get(id);
          if (!made) await announceUsers(tx, companyId, [id], 'user.created');
          else if (context.announce) await recordEvent(tx, companyId, 'user.created', serializeUserRow(made));
          // No endpoint could hear of it, so no event; the audit log records the change all the same.
          else await recordAudit(tx, [{ companyId, action: 'user.created', target: { type: 'user', id } }]);
          await markIdempotentChange(tx, { kind: 'user', id });
        },
        true,
      );
      if (!result.ok) throw failure(result.status, result.errors);
      return made ? createdAnswerOfRow(made) : createdAnswer(await live(companyId, result.id as number));
    },

    /** U3's answer for a user it created, rebuilt after a crash lost it (docs/decisions.md, "Idempotency-Key after a crash"). */
    async recoverCreated(companyId: number, id: number) {
      const row = await usersRepo.findById(db, companyId, id);
      return row ? createdAnswer(row) : undefined;
    },

    async update(companyId: number, id: number, body: Record<string, unknown>, files: UploadedFile[], mayGrantConsoleAccess: boolean) {
      await live(companyId, id);
      const hasPassword = body.password !== undefined || body.password_confirmation !== undefined;
      const passwordErrors = hasPassword ? validatePassword(body.password, body.password_confirmation) : undefined;
      const checked = checkUpdate(body, { ...passwordErrors, ...checkDocuments(files) });
      if (!checked.ok) throw invalid(checked.errors);
      const passwordHash = hasPassword ? await hashPassword(body.password as string) : undefined;
      const stored = files.length > 0 ? await storeDocuments(deps.config.dataDir, companyId, id, files) : [];
      let result: Awaited<ReturnType<typeof updateUsers>>[number];
      // The audit event's "before" (docs/audit.md): read just before the update's transaction.
      const before = await snapshotUsers(db, companyId, [id]);
      try {
        [result] = await updateUsers(
          deps,
          companyId,
          [{ id, values: checked.value, passwordHash, newDocuments: stored, mayGrantConsoleAccess }],
          false,
          (tx, [done]) =>
            done.ok ? announceUsers(tx, companyId, [id], 'user.updated', before, hasPassword ? 'password' : undefined) : Promise.resolve(),
        );
      } catch (error) {
        await deleteDocuments(deps.config.dataDir, stored);
        throw error;
      }
      if (!result.ok) {
        await deleteDocuments(deps.config.dataDir, stored);
        throw failure(result.status, result.errors);
      }
      return {
        message: 'User updated successfully via API',
        emailUpdate: result.emailUpdate,
        // unique_id is a permanent identifier: no update input changes it (docs/users.md).
        uniqueIdUpdate: 'No change.',
        user: serializeUser(await live(companyId, id), mayGrantConsoleAccess),
      };
    },

    async activate(companyId: number, id: number, notify: boolean) {
      await db.transaction(async (tx) => {
        const user = await usersRepo.lockById(tx, companyId, id);
        if (!user) throw notFound(USER_NOT_FOUND);
        // An exited user comes back through reinstate, which undoes the exit (docs/users.md, "Leavers"):
        // activating would only set a flag that the exit keeps false.
        if (isExited(user.exitDate, lagosDate())) throw forbidden('Failed to activate user.');
        await lifecycleRepo.activate(tx, companyId, id);
        await announceUsers(tx, companyId, [id], 'user.activated');
        if (notify) {
          const company = await companyName(tx, companyId);
          await deps.mailer.send(tx, activatedMail({ ...user, companyId }, company));
        }
      });
      return { message: 'User activated successfully.' };
    },

    async deactivate(companyId: number, id: number) {
      await db.transaction(async (tx) => {
        const user = await usersRepo.lockById(tx, companyId, id);
        if (!user) throw notFound(USER_NOT_FOUND);
        if (await isLastSuperAdmin(tx, companyId, user)) throw forbidden('Failed to deactivate user.');
        // Deactivation revokes the invitation and ends the sessions in the same transaction: an
        // old onboarding link or console session never brings back a user an administrator stopped.
        await lifecycleRepo.deactivate(tx, companyId, id);
        await announceUsers(tx, companyId, [id], 'user.deactivated');
        await endConsoleSessions(tx, companyId, [id]);
      });
      return { message: 'User deactivated successfully.' };
    },

    async destroy(companyId: number, id: number) {
      const documents = await db.transaction(async (tx) => {
        const user = await usersRepo.lockById(tx, companyId, id);
        if (!user) throw notFound(USER_NOT_FOUND);
        if (await isLastSuperAdmin(tx, companyId, user)) throw forbidden('Failed to delete user.');
        await announceUsers(tx, companyId, [id], 'user.deleted'); // the user as it was, before the soft delete
        // Their reports no longer point at a deleted person either.
        await lifecycleRepo.softDelete(tx, companyId, id);
        await endConsoleSessions(tx, companyId, [id]);
        return user.documentPaths ?? [];
      });
      // Files go after the commit: a rolled-back delete must not lose documents.
      await deleteDocuments(deps.config.dataDir, documents);
      return { message: 'User deleted successfully.' };
    },
  };
}
