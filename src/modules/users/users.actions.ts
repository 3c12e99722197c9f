// Single-user actions of U3-U7 on top of the shared batch cores (create/update) and the repo.
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db, Executor } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { DomainError, forbidden, invalid, notFound } from '../../platform/errors.js';
import { isoTimestamp } from '../../platform/format.js';
import type { Mailer } from '../../platform/mail/outbox.js';
import { createUsers } from './users.create.js';
import { checkDocuments, deleteDocuments, storeDocuments, type UploadedFile } from './users.documents.js';
import { checkCreate, checkUpdate } from './users.fields.js';
import { companyName } from './users.lookup.js';
import { activatedMail } from './users.mail.js';
import { hashPassword, validatePassword } from './users.passwords.js';
import { usersRepo } from './users.repo.js';
import { serializeUser } from './users.serializer.js';
import { updateUsers } from './users.update.js';

export const USER_NOT_FOUND = 'User not found.';

export interface ActionDeps {
  db: Db;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl' | 'dataDir'>;
}

/** Turns one batch result into U3's/U4's error: 400 `{error}` or 422 `{error: {field: [...]}}`. */
function failure(status: number, errors: Record<string, string[]>): DomainError {
  if (status === 404) return notFound(USER_NOT_FOUND);
  if (status === 400) return new DomainError('bad_request', Object.values(errors)[0][0]);
  return invalid(errors);
}

export function createUserActions(deps: ActionDeps) {
  const { db } = deps;

  /** An active super-admin must remain: deactivating or deleting the last one is refused (403). */
  async function isLastSuperAdmin(tx: Executor, companyId: number, user: typeof users.$inferSelect): Promise<boolean> {
    if (!user.isActive || !user.roles.includes('super-admin')) return false;
    const [other] = await tx
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          eq(users.companyId, companyId),
          ne(users.id, user.id),
          isNull(users.deletedAt),
          eq(users.isActive, true),
          sql`'super-admin' = ANY(${users.roles})`,
        ),
      )
      .limit(1);
    return !other;
  }

  async function live(companyId: number, id: number) {
    const row = await usersRepo.findById(db, companyId, id);
    if (!row) throw notFound(USER_NOT_FOUND);
    return row;
  }

  return {
    async create(companyId: number, body: Record<string, unknown>) {
      const checked = checkCreate(body);
      if (!checked.ok) throw invalid(checked.errors);
      const [result] = await createUsers(deps, companyId, [checked.value]);
      if (!result.ok) throw failure(result.status, result.errors);
      const { user } = await live(companyId, result.id as number);
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
    },

    async update(companyId: number, id: number, body: Record<string, unknown>, files: UploadedFile[]) {
      await live(companyId, id);
      const hasPassword = body.password !== undefined || body.password_confirmation !== undefined;
      const passwordErrors = hasPassword ? validatePassword(body.password, body.password_confirmation) : undefined;
      const checked = checkUpdate(body, { ...passwordErrors, ...checkDocuments(files) });
      if (!checked.ok) throw invalid(checked.errors);
      const passwordHash = hasPassword ? await hashPassword(body.password as string) : undefined;
      const stored = files.length > 0 ? await storeDocuments(deps.config.dataDir, companyId, id, files) : [];
      let result: Awaited<ReturnType<typeof updateUsers>>[number];
      try {
        [result] = await updateUsers(deps, companyId, [{ id, values: checked.value, passwordHash, newDocuments: stored }]);
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
        user: serializeUser(await live(companyId, id)),
      };
    },

    async activate(companyId: number, id: number, notify: boolean) {
      await db.transaction(async (tx) => {
        const user = await usersRepo.lockById(tx, companyId, id);
        if (!user) throw notFound(USER_NOT_FOUND);
        await tx
          .update(users)
          .set({ isActive: true, onboardingCompleted: true, onboardingToken: null, tokenExpiresAt: null, updatedAt: sql`now()` })
          .where(eq(users.id, id));
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
        await tx.update(users).set({ isActive: false, updatedAt: sql`now()` }).where(eq(users.id, id));
      });
      return { message: 'User deactivated successfully.' };
    },

    async destroy(companyId: number, id: number) {
      const documents = await db.transaction(async (tx) => {
        const user = await usersRepo.lockById(tx, companyId, id);
        if (!user) throw notFound(USER_NOT_FOUND);
        if (await isLastSuperAdmin(tx, companyId, user)) throw forbidden('Failed to delete user.');
        await tx
          .update(users)
          .set({
            deletedAt: sql`now()`,
            isActive: false,
            roles: [],
            suspendedRoles: null,
            documentPaths: null,
            onboardingToken: null,
            tokenExpiresAt: null,
            updatedAt: sql`now()`,
          })
          .where(eq(users.id, id));
        // Their reports no longer point at a deleted person.
        await tx
          .update(users)
          .set({ managerId: null, updatedAt: sql`now()` })
          .where(and(eq(users.companyId, companyId), eq(users.managerId, id)));
        return user.documentPaths ?? [];
      });
      // Files go after the commit: a rolled-back delete must not lose documents.
      await deleteDocuments(deps.config.dataDir, documents);
      return { message: 'User deleted successfully.' };
    },
  };
}
