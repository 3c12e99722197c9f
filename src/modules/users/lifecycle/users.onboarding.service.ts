// The onboarding link (docs/users.md, "The users rules"): `PUBLIC_URL/onboarding/<token>` lets an
// invited employee set a password, which activates the user and completes onboarding. The web
// console renders the page; this service owns the rules.
import type { Db, Executor } from '../../../db/client.js';
import { endConsoleSessions } from '../../../platform/auth/console-access.js';
import { badRequest, invalid, notFound } from '../../../platform/errors.js';
import { lifecycleRepo } from './users.lifecycle.repo.js';
import { hashPassword, validatePassword } from './users.passwords.rules.js';

export const ONBOARDING_NOT_FOUND = 'Onboarding link not found.';
export const ONBOARDING_EXPIRED = 'This onboarding link has expired.';

export interface OnboardingLink {
  userId: number;
  companyId: number;
  firstName: string;
  email: string;
  /**
   * `completed` is part of the contract for the page, but completing (or U7 activate) clears the
   * token, so a completed user no longer matches and `find` answers `undefined` for it.
   */
  state: 'open' | 'expired' | 'completed';
}

export function createOnboardingService(deps: { db: Db }) {
  const { db } = deps;

  // Inside a transaction every query must use `tx`: PGlite has one connection, and a query on
  // `db` would wait forever for the transaction holding it.
  async function lookup(executor: Executor, token: string): Promise<OnboardingLink | undefined> {
    if (typeof token !== 'string' || token.length === 0) return undefined;
    const row = await lifecycleRepo.findByOnboardingToken(executor, token);
    if (!row) return undefined;
    const { expired, ...rest } = row;
    return { ...rest, state: expired ? 'expired' : 'open' };
  }

  const find = (token: string) => lookup(db, token);

  async function complete(token: string, password: string, confirmation: string): Promise<{ userId: number }> {
    const fields = validatePassword(password, confirmation);
    if (fields) throw invalid(fields);
    const link = await find(token);
    if (!link) throw notFound(ONBOARDING_NOT_FOUND);
    if (link.state === 'expired') throw badRequest(ONBOARDING_EXPIRED);
    // Hash outside the transaction: argon2 is deliberately slow and must not hold a row lock.
    const passwordHash = await hashPassword(password);
    return db.transaction(async (tx) => {
      // The conditional UPDATE is the real check: two concurrent submissions, or a delete or an
      // expiry in between, leave exactly one winner and never a half-completed user.
      const updated = await lifecycleRepo.completeOnboarding(tx, token, passwordHash);
      if (!updated) {
        const again = await lookup(tx, token);
        if (again?.state === 'expired') throw badRequest(ONBOARDING_EXPIRED);
        throw notFound(ONBOARDING_NOT_FOUND);
      }
      // Like every password set: no session opened before it survives it.
      await endConsoleSessions(tx, updated.companyId, [updated.userId]);
      return { userId: updated.userId };
    });
  }

  return { find, complete };
}

export type OnboardingService = ReturnType<typeof createOnboardingService>;
