// Console access is the most powerful thing a company has: a console administrator can generate
// an `all` token. So handing it out through the API (giving a user a console role, or setting the
// password of a user who holds one) needs a token that could already do everything: scope `all`
// (docs/users.md, "Console roles through the API"). The same rule decides who sees the invitation
// (onboarding token) of such a user, since completing it sets that user's password.
import type { Executor } from '../../db/client.js';
import { AccessError } from '../errors.js';
import { deleteConsoleSessions } from './console-access.repo.js';

/** Roles that may sign in to the console (docs/console.md, "Who may sign in"). */
export const CONSOLE_ROLES: readonly string[] = ['super-admin', 'admin'];

export const SCOPE_DENIED = 'This token is not allowed to access this endpoint.';

export function holdsConsoleRole(roles: readonly string[] | null | undefined): boolean {
  return (roles ?? []).some((role) => CONSOLE_ROLES.includes(role));
}

/** Only `all`: `users.*` is exactly the scope the escalation would start from. */
export function mayGrantConsoleAccess(scopes: readonly string[]): boolean {
  return scopes.includes('all');
}

/** The scope 403 of docs/reference.md, "Authentication and scopes", for a request whose token may not hand out console access. */
export const consoleAccessDenied = () => new AccessError('forbidden', SCOPE_DENIED);

/**
 * Ends every console session of these users: called in the same transaction as a password change,
 * a deactivation or a deletion, so that an old session never outlives the credentials or the
 * standing it was opened with (reactivating a user must not bring its old sessions back).
 */
export async function endConsoleSessions(executor: Executor, companyId: number, userIds: number[]): Promise<void> {
  if (userIds.length === 0) return;
  await deleteConsoleSessions(executor, companyId, userIds);
}
