// Administrators of a company (docs/console.md, "Administrators"): the users holding a console role
// (`super-admin`, `admin`), inviting one (a U3 create with that role, inactive, with an onboarding
// link), changing the role and removing it. Used by the console's Administrators page and by
// `payroll admin invite` (the first administrator of a company made by the operator).
import { recordAudit } from '../../../platform/audit/index.js';
import { CONSOLE_ROLES, endConsoleSessions, holdConsoleSessions } from '../../../platform/auth/console-access.js';
import { forbidden, invalid, notFound } from '../../../platform/errors.js';
import { lagosDate } from '../../../platform/format.js';
import { isExited } from '../lifecycle/users.exit.repo.js';
import { lifecycleRepo } from '../lifecycle/users.lifecycle.repo.js';
import type { ActionDeps, createUserActions } from '../users.actions.service.js';
import { onboardingLink } from '../users.mail.js';
import { usersRepo } from '../users.repo.js';
import { type AdminRow, adminsRepo } from './users.admins.repo.js';

export const ADMIN_ROLES = ['super-admin', 'admin'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

export const ADMIN_MESSAGES = {
  invalidRole: 'Choose Super admin or Admin.',
  superOnly: 'Only a super admin may grant or take away the super admin role.',
  lastSuper: 'The company must keep at least one active super admin: make another administrator super admin first.',
  notAdmin: 'This user is not an administrator.',
  noUserType: 'The company has no user type: add one in Settings first.',
} as const;

export interface InviteInput {
  first_name?: string;
  last_name?: string;
  personal_email?: string;
  role?: string;
  domain_name?: string;
  user_types?: string;
}

/** Who acts: a console administrator (their roles), or the operator (the CLI), who may do everything. */
export type Actor = { roles: readonly string[] } | 'operator';
const isSuper = (actor: Actor) => actor === 'operator' || actor.roles.includes('super-admin');

const isAdminRole = (role: unknown): role is AdminRole => typeof role === 'string' && (ADMIN_ROLES as readonly string[]).includes(role);

export function createAdminsService(deps: ActionDeps, actions: ReturnType<typeof createUserActions>) {
  const { db } = deps;

  /** Whether `user` is the company's last active super admin (an exited one is not active). */
  async function lastSuper(
    tx: Parameters<typeof lifecycleRepo.otherActiveSuperAdmin>[0],
    companyId: number,
    user: { id: number; roles: string[]; isActive: boolean; exitDate: string | null },
  ) {
    const today = lagosDate();
    if (!user.isActive || isExited(user.exitDate, today) || !user.roles.includes('super-admin')) return false;
    return !(await lifecycleRepo.otherActiveSuperAdmin(tx, companyId, user.id, today));
  }

  return {
    list: (companyId: number): Promise<AdminRow[]> => adminsRepo.list(db, companyId),

    /**
     * A U3 create with the chosen console role (inactive, with an onboarding link; the invitation
     * e-mail goes to the outbox when `notify`). Answers the user and the link, which the caller
     * shows only where no mail can carry it.
     */
    async invite(companyId: number, actor: Actor, input: InviteInput, notify: boolean) {
      if (!isAdminRole(input.role)) throw invalid({ role: [ADMIN_MESSAGES.invalidRole] });
      if (input.role === 'super-admin' && !isSuper(actor)) throw forbidden(ADMIN_MESSAGES.superOnly);
      const defaults = await adminsRepo.inviteDefaults(db, companyId);
      if (!defaults) throw notFound('Company not found.');
      const userType = input.user_types || defaults.userType;
      if (!userType) throw invalid({ user_types: [ADMIN_MESSAGES.noUserType] });
      const created = await actions.create(
        companyId,
        {
          first_name: input.first_name,
          last_name: input.last_name,
          personal_email: input.personal_email,
          domain_name: input.domain_name || defaults.domain,
          user_types: userType,
          start_date: lagosDate(),
          roles: [input.role],
          is_active: false,
          notify,
        },
        true,
      );
      const row = await usersRepo.findById(db, companyId, created.user.id);
      const token = row?.user.onboardingToken;
      return { user: created.user, role: input.role, link: token ? onboardingLink(deps.config.publicUrl, token) : null };
    },

    /** Gives an administrator the other console role; their other roles stay. */
    async setRole(companyId: number, actor: Actor, id: number, role: unknown): Promise<void> {
      if (!isAdminRole(role)) throw invalid({ role: [ADMIN_MESSAGES.invalidRole] });
      await db.transaction(async (tx) => {
        const user = await usersRepo.lockById(tx, companyId, id);
        if (!user) throw notFound('User not found.');
        if (!user.roles.some((r) => CONSOLE_ROLES.includes(r))) throw invalid({ role: [ADMIN_MESSAGES.notAdmin] });
        const touchesSuper = role === 'super-admin' || user.roles.includes('super-admin');
        if (touchesSuper && !isSuper(actor)) throw forbidden(ADMIN_MESSAGES.superOnly);
        if (role !== 'super-admin' && (await lastSuper(tx, companyId, user))) throw forbidden(ADMIN_MESSAGES.lastSuper);
        const others = user.roles.filter((r) => !CONSOLE_ROLES.includes(r));
        // The session stays, with other powers (a super admin's): this process's cached sessions
        // must not outlive the commit (docs/decisions.md, "Console sessions cached").
        holdConsoleSessions();
        await adminsRepo.setRoles(tx, companyId, id, [role, ...others]);
        await recordAudit(tx, [
          { companyId, action: 'user.roles_changed', target: { type: 'user', id }, changes: { roles: [user.roles, [role, ...others]] } },
        ]);
      });
    },

    /** Takes the console roles away (the person stays an employee); their console sessions end with them. */
    async remove(companyId: number, actor: Actor, id: number): Promise<void> {
      await db.transaction(async (tx) => {
        const user = await usersRepo.lockById(tx, companyId, id);
        if (!user) throw notFound('User not found.');
        if (!user.roles.some((r) => CONSOLE_ROLES.includes(r))) throw invalid({ role: [ADMIN_MESSAGES.notAdmin] });
        if (user.roles.includes('super-admin') && !isSuper(actor)) throw forbidden(ADMIN_MESSAGES.superOnly);
        if (await lastSuper(tx, companyId, user)) throw forbidden(ADMIN_MESSAGES.lastSuper);
        const others = user.roles.filter((r) => !CONSOLE_ROLES.includes(r));
        await adminsRepo.setRoles(tx, companyId, id, others.length ? others : ['user']);
        await recordAudit(tx, [
          {
            companyId,
            action: 'user.roles_changed',
            target: { type: 'user', id },
            changes: { roles: [user.roles, others.length ? others : ['user']] },
          },
        ]);
        await endConsoleSessions(tx, companyId, [id]);
      });
    },
  };
}

export type AdminsService = ReturnType<typeof createAdminsService>;
