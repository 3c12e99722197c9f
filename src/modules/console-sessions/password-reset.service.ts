// Forgot password (docs/console.md, "Forgot password"): an administrator asks for a link by e-mail;
// the answer is the same whether the address has an account or not; requests are throttled per
// address and per e-mail (counted for unknown e-mails too); a link is a 256-bit secret, stored as
// its SHA-256, valid 30 minutes and once, and setting the password ends the user's sessions and
// every other open link.
import crypto from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { endConsoleSessions, holdsConsoleRole } from '../../platform/auth/console-access.js';
import { invalid } from '../../platform/errors.js';
import { lagosDate } from '../../platform/format.js';
import type { Mailer } from '../../platform/mail/outbox.js';
import { hashPassword, isExited, validatePassword } from '../users/index.js';
import { consoleSessionsRepo } from './console-sessions.repo.js';
import { passwordResetRepo } from './password-reset.repo.js';

export const RESET_LINK_SECONDS = 30 * 60;
export const RESET_WINDOW_SECONDS = 15 * 60;
/** Requests per window: per e-mail (from any address) and per address (any e-mail). */
export const RESET_LIMITS = { perEmail: 3, perAddress: 20 };

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

export type ResetState = 'open' | 'expired' | 'used' | 'invalid';

export function createPasswordResetService(deps: { db: Db; config: Config; mailer: Mailer }) {
  const { db } = deps;
  return {
    /** Returns `throttled` or `sent` (also for an unknown e-mail: the caller answers the same). */
    async request(identifierInput: string, ip: string): Promise<'sent' | 'throttled'> {
      const identifier = identifierInput.trim().toLowerCase();
      const keys = { email: sha256(`reset-email|${identifier}`), address: sha256(`reset-address|${ip}`) };
      return db.transaction(async (tx) => {
        const counts = await consoleSessionsRepo.takeAttempt(tx, [keys.email, keys.address], RESET_WINDOW_SECONDS);
        if ((counts[keys.email]?.attempts ?? 0) > RESET_LIMITS.perEmail || (counts[keys.address]?.attempts ?? 0) > RESET_LIMITS.perAddress)
          return 'throttled';
        if (!identifier.includes('@')) return 'sent';
        const account = await consoleSessionsRepo.signInAccount(tx, identifier, lagosDate());
        // Only someone who could sign in gets a link; everyone gets the same answer.
        const mayUse =
          account &&
          holdsConsoleRole(account.roles) &&
          account.isActive &&
          !account.isSuspended &&
          !isExited(account.exitDate, lagosDate()) &&
          account.companyActive;
        if (!account || !mayUse) return 'sent';
        const secret = crypto.randomBytes(32).toString('base64url');
        await passwordResetRepo.insert(tx, {
          tokenHash: sha256(secret),
          companyId: account.companyId,
          userId: account.id,
          expiresAt: new Date(Date.now() + RESET_LINK_SECONDS * 1000),
        });
        const link = `${deps.config.publicUrl}/console/reset-password/${secret}`;
        await deps.mailer.send(tx, {
          companyId: account.companyId,
          to: identifier,
          subject: 'Reset your console password',
          text: `Hello ${account.firstName},\n\nSomeone (we hope you) asked to reset the password of the payroll console for ${identifier}.\nSet a new password here within 30 minutes (the link works once):\n${link}\n\nIf it was not you, ignore this e-mail: your password stays as it is.\n`,
        });
        return 'sent';
      });
    },

    async check(secret: string): Promise<ResetState> {
      const row = await passwordResetRepo.find(db, sha256(secret));
      if (!row) return 'invalid';
      if (row.usedAt) return 'used';
      return row.expiresAt.getTime() <= Date.now() ? 'expired' : 'open';
    },

    /** Sets the password through an open link; `invalid`/`expired`/`used` when the link no longer works. */
    async complete(secret: string, password: string, confirmation: string): Promise<ResetState | 'done'> {
      const fields = validatePassword(password, confirmation);
      if (fields) throw invalid(fields);
      const passwordHash = await hashPassword(password);
      const tokenHash = sha256(secret);
      return db.transaction(async (tx) => {
        const used = await passwordResetRepo.use(tx, tokenHash);
        if (!used) {
          const row = await passwordResetRepo.find(tx, tokenHash);
          return !row ? 'invalid' : row.usedAt ? 'used' : 'expired';
        }
        if (!(await passwordResetRepo.setPassword(tx, used.companyId, used.userId, passwordHash))) return 'invalid';
        await passwordResetRepo.useOthers(tx, used.companyId, used.userId);
        await endConsoleSessions(tx, used.companyId, [used.userId]);
        return 'done';
      });
    },
  };
}
