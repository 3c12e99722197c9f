// Console sign-in and sessions: administrators only, argon2id passwords (users/lifecycle/users.passwords.rules.ts), sessions
// in web_sessions keyed by the SHA-256 of a 256-bit cookie value, per-session CSRF secrets, and
// sign-in throttling counted in the database so that it holds across instances.

import crypto from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { type AuditEvent, recordAudit } from '../../platform/audit/index.js';
import { type AuthCache, EntryCache, readAndKeep, readThrough } from '../../platform/auth/auth-cache.js';
import { CONSOLE_ROLES, consoleSessionsHeld, holdConsoleSessions, holdsConsoleRole } from '../../platform/auth/console-access.js';
import { readAuthGeneration } from '../../platform/auth/tokens.js';
import { lagosDate } from '../../platform/format.js';
import type { Mailer } from '../../platform/mail/outbox.js';
import { hashPassword, isExited, verifyPassword } from '../users/index.js';
import { createAccountLock } from './account-lock.service.js';
import { consoleSessionsRepo, type SessionRow } from './console-sessions.repo.js';

/** The roles that open the console (one list, shared with the users API's grant rule). */
export const ADMIN_ROLES = CONSOLE_ROLES;
/** A session ends after 30 idle minutes or 12 hours, whichever comes first. */
export const SESSION_IDLE_SECONDS = 30 * 60;
export const SESSION_MAX_SECONDS = 12 * 60 * 60;
/** Idle tracking writes at most once a minute per session, so page views are not all writes. */
const TOUCH_EVERY_MS = 60_000;
/**
 * Sessions an instance keeps (the least recently used go first): one signed-in administrator for
 * each of the 10,000 companies of the goal, twice; ~1 KB each, so ~20 MB at most.
 */
const MAX_CACHED_SESSIONS = 20_000;
/**
 * Failed sign-ins allowed per window (SIGNIN_WINDOW_SECONDS, 15 minutes by default): per e-mail from
 * one address, and per address. The per-account bound over all addresses is SIGNIN_ACCOUNT_FAILURES
 * (account-lock.service.ts).
 */
export const THROTTLE = { perAccount: 5, perAddress: 50 };

export const SIGN_IN_MESSAGES = {
  invalid: 'The e-mail address or password is incorrect.',
  notAdmin: 'Only company administrators (super-admin or admin) can sign in to the console.',
  inactive: 'This account is not active. Ask another administrator of your company to activate it.',
  companyInactive: 'Your company is deactivated, so its console is closed.',
  missing: 'Enter your e-mail address and password.',
} as const;

export type SignInResult =
  | { ok: true; token: string; csrfToken: string; expiresAt: Date; userId: number; companyId: number }
  | { ok: false; status: number; message: string; retryAfterSeconds?: number };

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');
export const randomSecret = () => crypto.randomBytes(32).toString('base64url');

/** Constant-time comparison of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  const left = crypto.createHash('sha256').update(a).digest();
  const right = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(left, right);
}

/** A sign-in's audit event: the person signing in is the actor, their user the target. */
const signInEvent = (account: { id: number; companyId: number }, action: string, email: string): AuditEvent => ({
  companyId: account.companyId,
  action,
  target: { type: 'user', id: account.id },
  actor: { type: 'console_user', id: String(account.id), email },
});

export function createSessionService(deps: { db: Db; config: Config; mailer: Mailer; authCache: AuthCache }) {
  const { db, authCache } = deps;
  // Sessions by the hash of their cookie, under the authentication generation (one per instance).
  const entries = authCache.attach(new EntryCache<SessionRow>(MAX_CACHED_SESSIONS, consoleSessionsHeld));
  const readSession = (tokenHash: string) => () => consoleSessionsRepo.findSessionWithGeneration(db, tokenHash);
  const readGeneration = () => readAuthGeneration(db);

  /** A live session of someone who may use the console, as of `now`. */
  function usable(row: SessionRow, now: number): boolean {
    // Losing the admin role, deactivation, suspension, deletion or the exit (from the day after
    // the exit date, docs/users.md, "Leavers") ends every session at once.
    const allowed =
      isAdmin(row.roles) &&
      row.userActive &&
      !row.userSuspended &&
      !row.userDeletedAt &&
      !isExited(row.userExitDate, lagosDate(new Date(now))) &&
      row.companyActive;
    return allowed && row.expiresAt.getTime() > now && now - row.lastSeenAt.getTime() <= SESSION_IDLE_SECONDS * 1000;
  }

  /** Idle tracking: the last view is written at most once a minute, and the cached row follows it. */
  async function touched(row: SessionRow, now: number): Promise<SessionRow> {
    if (now - row.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
      row.lastSeenAt = new Date(now);
      await consoleSessionsRepo.touchSession(db, row.companyId, row.id, row.lastSeenAt);
    }
    return row;
  }
  const lock = createAccountLock(deps);
  const windowSeconds = lock.windowSeconds;
  // Verifying against a real hash when nobody matches keeps the response time the same, so the
  // timing does not reveal which e-mail addresses have accounts.
  let dummyHash: Promise<string> | undefined;
  const dummy = () => (dummyHash ??= hashPassword(randomSecret()));

  /** Keys of the counters an attempt takes: (IP, e-mail), IP, and the account over all addresses. */
  function throttleKeys(ip: string, identifier: string, candidate: { id: number } | undefined) {
    return {
      account: sha256(`account|${ip}|${identifier.toLowerCase()}`),
      address: sha256(`address|${ip}`),
      owner: lock.key(candidate, identifier),
    };
  }

  /** Throttled, constant-time check of an administrator's e-mail and password (sign-in rules). */
  async function checkCredentials(identifierInput: string, password: string, ip: string, unlockPass?: string) {
    const identifier = identifierInput.trim();
    if (!identifier || !password) return { ok: false as const, status: 422, message: SIGN_IN_MESSAGES.missing };
    // One identifier names one account, so an attempt costs one argon2 verification; an unknown
    // identifier costs one too (against a dummy hash), so timing does not reveal accounts.
    const candidate = await consoleSessionsRepo.signInAccount(db, identifier, lagosDate());
    const keys = throttleKeys(ip, identifier, candidate);
    const allKeys = [keys.account, keys.address, keys.owner];
    // The attempt is counted before the password is checked, atomically: of N parallel guesses
    // at most the limit reach argon2. A refused attempt gives its unit back, so hammering a
    // locked account does not also use up its address's budget.
    const counters = await consoleSessionsRepo.takeAttempt(db, allKeys, windowSeconds);
    const account = counters[keys.account];
    const address = counters[keys.address];
    const owner = counters[keys.owner];
    const blocked =
      (account.attempts > THROTTLE.perAccount ? account : undefined) ??
      (address.attempts > THROTTLE.perAddress ? address : undefined) ??
      (lock.locked(owner) && !(await lock.passLifts(unlockPass, candidate)) ? owner : undefined);
    if (blocked) {
      await consoleSessionsRepo.giveBackAttempt(db, allKeys);
      const freeAt = blocked.windowStart.getTime() + windowSeconds * 1000;
      const minutes = Math.max(1, Math.ceil((freeAt - Date.now()) / 60_000));
      // Retry-After is the whole window whichever counter refused, as it always was: the answer
      // must not tell the account's lock from the address's.
      return {
        ok: false as const,
        status: 429,
        message: `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        retryAfterSeconds: windowSeconds,
      };
    }

    const verified = await verifyPassword(candidate?.passwordHash ?? (await dummy()), password);
    if (!candidate || !verified) {
      // The attempt stays counted: it is a failure. The one that reaches the account's limit mails its owner.
      await lock.afterFailure(keys.owner, owner, candidate);
      // A failed sign-in on a known account is in its company's audit log (docs/audit.md); an
      // unknown identifier belongs to no company, so it is only counted by the throttle.
      if (candidate) await recordAudit(db, [signInEvent(candidate, 'console.sign_in_failed', identifier)]);
      return { ok: false as const, status: 401, message: SIGN_IN_MESSAGES.invalid };
    }
    const matched = candidate;
    const refusal = !isAdmin(matched.roles)
      ? SIGN_IN_MESSAGES.notAdmin
      : !matched.isActive || matched.isSuspended || isExited(matched.exitDate, lagosDate())
        ? SIGN_IN_MESSAGES.inactive
        : !matched.companyActive
          ? SIGN_IN_MESSAGES.companyInactive
          : undefined;
    if (refusal) {
      // The right password is not a guess: it does not count against the throttle.
      await consoleSessionsRepo.giveBackAttempt(db, allKeys);
      return { ok: false as const, status: 403, message: refusal };
    }

    return { ok: true as const, account: matched, keys };
  }

  return {
    /** `unlockPass`: the browser's pass cookie from an unlock link (account-lock.service.ts), if any. */
    async signIn(identifierInput: string, password: string, ip: string, unlockPass?: string): Promise<SignInResult> {
      const checked = await checkCredentials(identifierInput, password, ip, unlockPass);
      if (!checked.ok) return checked;
      const { account: matched, keys } = checked;
      const token = randomSecret();
      const csrfToken = randomSecret();
      const expiresAt = new Date(Date.now() + SESSION_MAX_SECONDS * 1000);
      await db.transaction(async (tx) => {
        await consoleSessionsRepo.deleteExpiredSessions(tx, matched.companyId, matched.id);
        await consoleSessionsRepo.prune(tx, windowSeconds);
        await consoleSessionsRepo.insertSession(tx, matched.companyId, {
          tokenHash: sha256(token),
          csrfToken,
          userId: matched.id,
          expiresAt,
        });
        // A success clears this account's counter for this address and is not held against the
        // address; the account's counter over all addresses keeps the failures before it (a
        // success in between must not grant a guesser another SIGNIN_ACCOUNT_FAILURES).
        await consoleSessionsRepo.clearFailures(tx, keys.account);
        await consoleSessionsRepo.giveBackAttempt(tx, [keys.address, keys.owner]);
        await recordAudit(tx, [signInEvent(matched, 'console.signed_in', identifierInput.trim())]);
      });
      return { ok: true, token, csrfToken, expiresAt, userId: matched.id, companyId: matched.companyId };
    },

    /**
     * The session of a cookie value, or undefined when unknown, expired, idle or no longer allowed.
     * From this instance's cache when it may be (docs/decisions.md, "Console sessions cached"); a
     * cached session that would be refused is read again first, as another instance may have
     * touched it since.
     */
    async resolve(token: string | undefined): Promise<SessionRow | undefined> {
      if (!token || token.length > 200) return undefined;
      const tokenHash = sha256(token);
      const now = Date.now();
      const wasCached = entries.get(tokenHash, now) !== null;
      const cached = await readThrough(authCache, entries, tokenHash, now, readSession(tokenHash), readGeneration);
      if (!cached) return undefined;
      if (usable(cached, now)) return touched(cached, now);
      // Only a cached row may be older than another instance's touch; one just read is the database's.
      const row = wasCached ? await readAndKeep(authCache, entries, tokenHash, readSession(tokenHash)) : cached;
      if (!row) return undefined;
      if (usable(row, now)) return touched(row, now);
      if (row.expiresAt.getTime() > now) {
        holdConsoleSessions();
        await consoleSessionsRepo.deleteSessionByHash(db, tokenHash);
      }
      return undefined;
    },

    /** The unlock link of the lock e-mail (account-lock.service.ts). */
    unlockLinks: { check: lock.checkLink, redeem: lock.redeemLink },

    async signOut(token: string | undefined): Promise<void> {
      if (!token) return;
      holdConsoleSessions();
      await consoleSessionsRepo.deleteSessionByHash(db, sha256(token));
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;

export const isAdmin = (roles: readonly string[]): boolean => holdsConsoleRole(roles);
