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
 * How long this process neither uses nor keeps cached console sessions after it starts ending one
 * (docs/decisions.md, "Console sessions cached"). The session's end commits with its transaction,
 * later; until then a read still finds the row, and a row cached meanwhile would outlive the
 * commit until the generation is read again (up to GENERATION_MS). Every session read of the
 * process goes to the database for this long instead, so the end applies at its commit, as it
 * did before sessions were cached. A transaction still open after this is bounded by the
 * generation, like a change made by another instance.
 */
export const SESSION_HOLD_MS = 60_000;
/** Process-wide: `endConsoleSessions` runs inside a caller's transaction, with no instance at hand. */
let sessionsHeldUntil = Number.NEGATIVE_INFINITY;

/** Stops caching console sessions in this process for SESSION_HOLD_MS (call before the change). */
export function holdConsoleSessions(now = Date.now()): void {
  sessionsHeldUntil = Math.max(sessionsHeldUntil, now + SESSION_HOLD_MS);
}

/**
 * Ends the hold at once. Tests only: a test process runs many apps one after another, and a test
 * that counts the statements of a cached page must not see the hold of an earlier file's app.
 */
export function releaseConsoleSessionsHold(): void {
  sessionsHeldUntil = Number.NEGATIVE_INFINITY;
}

/** True while console sessions are read from the database only (see SESSION_HOLD_MS). */
export const consoleSessionsHeld = (now: number): boolean => now < sessionsHeldUntil;

/**
 * Ends every console session of these users: called in the same transaction as a password change,
 * a deactivation or a deletion, so that an old session never outlives the credentials or the
 * standing it was opened with (reactivating a user must not bring its old sessions back).
 */
export async function endConsoleSessions(executor: Executor, companyId: number, userIds: number[]): Promise<void> {
  if (userIds.length === 0) return;
  holdConsoleSessions();
  await deleteConsoleSessions(executor, companyId, userIds);
}
