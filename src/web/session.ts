// Console sign-in and sessions: administrators only, argon2id passwords (users.passwords), sessions
// in web_sessions keyed by the SHA-256 of a 256-bit cookie value, per-session CSRF secrets, and
// sign-in throttling counted in the database so that it holds across instances.
import crypto from 'node:crypto';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { hashPassword, verifyPassword } from '../modules/users/users.passwords.js';
import { type SessionRow, webRepo } from './web.repo.js';

export const ADMIN_ROLES = ['super-admin', 'admin'];
/** A session ends after 30 idle minutes or 12 hours, whichever comes first. */
export const SESSION_IDLE_SECONDS = 30 * 60;
export const SESSION_MAX_SECONDS = 12 * 60 * 60;
/** Idle tracking writes at most once a minute per session, so page views are not all writes. */
const TOUCH_EVERY_MS = 60_000;
export const THROTTLE = { windowSeconds: 15 * 60, perAccount: 5, perAddress: 50 };

export const SIGN_IN_MESSAGES = {
  invalid: 'The e-mail address or password is incorrect.',
  notAdmin: 'Only company administrators (super-admin or admin) can sign in to the console.',
  inactive: 'This account is not active. Ask another administrator of your company to activate it.',
  companyInactive: 'Your company is deactivated, so its console is closed.',
  missing: 'Enter your e-mail address and password.',
} as const;

export type SignInResult =
  | { ok: true; token: string; csrfToken: string; expiresAt: Date; userId: number; companyId: number }
  | { ok: false; status: number; message: string };

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');
export const randomSecret = () => crypto.randomBytes(32).toString('base64url');

/** Constant-time comparison of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  const left = crypto.createHash('sha256').update(a).digest();
  const right = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(left, right);
}

export function createSessionService(deps: { db: Db; config: Config }) {
  const { db } = deps;
  // Verifying against a real hash when nobody matches keeps the response time the same, so the
  // timing does not reveal which e-mail addresses have accounts.
  let dummyHash: Promise<string> | undefined;
  const dummy = () => (dummyHash ??= hashPassword(randomSecret()));

  function throttleKeys(ip: string, identifier: string) {
    return { account: sha256(`account|${ip}|${identifier.toLowerCase()}`), address: sha256(`address|${ip}`) };
  }

  return {
    async signIn(identifierInput: string, password: string, ip: string): Promise<SignInResult> {
      const identifier = identifierInput.trim();
      if (!identifier || !password) return { ok: false, status: 422, message: SIGN_IN_MESSAGES.missing };
      const keys = throttleKeys(ip, identifier);
      const counts = await webRepo.countFailures(db, [keys.account, keys.address], THROTTLE.windowSeconds);
      const account = counts[keys.account];
      const address = counts[keys.address];
      const blocked =
        (account && account.count >= THROTTLE.perAccount ? account : undefined) ??
        (address && address.count >= THROTTLE.perAddress ? address : undefined);
      if (blocked) {
        const freeAt = (blocked.oldest?.getTime() ?? Date.now()) + THROTTLE.windowSeconds * 1000;
        const minutes = Math.max(1, Math.ceil((freeAt - Date.now()) / 60_000));
        return {
          ok: false,
          status: 429,
          message: `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        };
      }

      const candidates = await webRepo.signInCandidates(db, identifier);
      // Someone who is an administrator somewhere is tried first when one personal e-mail is shared.
      candidates.sort((a, b) => Number(isAdmin(b.roles)) - Number(isAdmin(a.roles)));
      let matched: (typeof candidates)[number] | undefined;
      for (const candidate of candidates) {
        if (await verifyPassword(candidate.passwordHash, password)) {
          matched = candidate;
          break;
        }
      }
      if (candidates.length === 0) await verifyPassword(await dummy(), password);
      if (!matched) {
        await webRepo.recordFailure(db, [keys.account, keys.address], THROTTLE.windowSeconds);
        return { ok: false, status: 401, message: SIGN_IN_MESSAGES.invalid };
      }
      if (!isAdmin(matched.roles)) return { ok: false, status: 403, message: SIGN_IN_MESSAGES.notAdmin };
      if (!matched.isActive || matched.isSuspended) return { ok: false, status: 403, message: SIGN_IN_MESSAGES.inactive };
      if (!matched.companyActive) return { ok: false, status: 403, message: SIGN_IN_MESSAGES.companyInactive };

      const token = randomSecret();
      const csrfToken = randomSecret();
      const expiresAt = new Date(Date.now() + SESSION_MAX_SECONDS * 1000);
      await db.transaction(async (tx) => {
        await webRepo.deleteExpiredSessions(tx, matched.companyId, matched.id);
        await webRepo.prune(tx, THROTTLE.windowSeconds);
        await webRepo.insertSession(tx, matched.companyId, { tokenHash: sha256(token), csrfToken, userId: matched.id, expiresAt });
        await webRepo.clearFailures(tx, keys.account);
      });
      return { ok: true, token, csrfToken, expiresAt, userId: matched.id, companyId: matched.companyId };
    },

    /** The session of a cookie value, or undefined when unknown, expired, idle or no longer allowed. */
    async resolve(token: string | undefined): Promise<SessionRow | undefined> {
      if (!token || token.length > 200) return undefined;
      const row = await webRepo.findSession(db, sha256(token));
      if (!row) return undefined;
      const now = Date.now();
      const idle = now - row.lastSeenAt.getTime() > SESSION_IDLE_SECONDS * 1000;
      // Losing the admin role, deactivation, suspension or deletion ends every session at once.
      const allowed = isAdmin(row.roles) && row.userActive && !row.userSuspended && !row.userDeletedAt && row.companyActive;
      if (idle || !allowed) {
        await webRepo.deleteSessionByHash(db, sha256(token));
        return undefined;
      }
      if (now - row.lastSeenAt.getTime() >= TOUCH_EVERY_MS) await webRepo.touchSession(db, row.companyId, row.id, new Date(now));
      return row;
    },

    async signOut(token: string | undefined): Promise<void> {
      if (token) await webRepo.deleteSessionByHash(db, sha256(token));
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;

export function isAdmin(roles: readonly string[]): boolean {
  return roles.some((role) => ADMIN_ROLES.includes(role));
}
