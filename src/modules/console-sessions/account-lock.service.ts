// The per-account bound on failed console sign-ins (docs/console.md, Throttling): after
// SIGNIN_ACCOUNT_FAILURES wrong passwords for one account within SIGNIN_WINDOW_SECONDS, from any
// addresses, the account refuses password sign-ins for the rest of that window. The owner gets one
// e-mail per window with a single-use signed link that lifts the lock for the browser that opens it
// (a pass cookie), so a stranger cannot keep a real administrator out; the window ending always
// lifts it. Unknown identifiers are counted and locked exactly like accounts (no enumeration).
import crypto from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Mailer } from '../../platform/mail/outbox.js';
import { createLinkSigner } from '../../platform/signed-links.js';
import { consoleSessionsRepo, type LoginCounter } from './console-sessions.repo.js';

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

/** The account a sign-in names, as far as the lock needs it (console-sessions.repo.ts signInAccount). */
export interface LockableAccount {
  id: number;
  companyId: number;
  firstName: string;
  email: string;
  personalEmail: string | null;
}

export type LinkRedemption = { ok: true; pass: string; expiresAt: Date } | { ok: false; reason: 'invalid' | 'expired' | 'used' };

export function createAccountLock(deps: {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'signInWindowSeconds' | 'signInAccountFailures'>;
  mailer: Mailer;
}) {
  const { db, config, mailer } = deps;
  const windowSeconds = config.signInWindowSeconds;
  const limit = config.signInAccountFailures;
  // Two keys: a link cannot be used as a pass, nor a pass as a link.
  const links = createLinkSigner('console-unlock-link');
  const passes = createLinkSigner('console-unlock-pass');

  return {
    limit,
    windowSeconds,

    /** The counter key of the account an identifier names, else of the identifier itself. */
    key(account: { id: number } | undefined, identifier: string): string {
      return sha256(account ? `owner|user|${account.id}` : `owner|identifier|${identifier.toLowerCase()}`);
    },

    /** True when this counter (this attempt included) is past the limit. */
    locked(counter: LoginCounter): boolean {
      return counter.attempts > limit;
    },

    /** True when the browser's pass cookie was issued for this account and is still valid. */
    async passLifts(pass: string | undefined, account: { id: number } | undefined): Promise<boolean> {
      if (!pass || !account || pass.length > 200) return false;
      const checked = await passes.verify(db, pass, new Date());
      return checked.ok && checked.id === account.id;
    },

    /**
     * After a wrong password counted as `counter`: when the limit is reached, the owner is mailed
     * once per window (a counter of its own decides which failure mails). An unknown identifier
     * takes the same counter in the same kind of transaction, so the lock looks the same for it.
     */
    async afterFailure(key: string, counter: LoginCounter, account: LockableAccount | undefined): Promise<void> {
      if (counter.attempts < limit) return;
      const lockEnds = new Date(counter.windowStart.getTime() + windowSeconds * 1000);
      await db.transaction(async (tx) => {
        const mails = await consoleSessionsRepo.takeAttempt(tx, [sha256(`lock-mail|${key}`)], windowSeconds);
        if (!account || Object.values(mails)[0]?.attempts !== 1) return;
        const link = `${config.publicUrl}/console/unlock/${await links.sign(tx, account.id, lockEnds)}`;
        await mailer.send(tx, {
          companyId: account.companyId,
          to: account.personalEmail ?? account.email,
          subject: 'Console sign-in locked after failed attempts',
          text: [
            `Hello ${account.firstName},`,
            '',
            `Someone entered a wrong password for your console account (${account.email}) ${limit} times, so password sign-in`,
            `for it is locked until ${lockEnds.toISOString()} (UTC), from every address.`,
            '',
            'If that was you, open this link in the browser you sign in with; it lifts the lock for that browser only',
            '(it works once, until the lock ends):',
            link,
            '',
            'If it was not you, you need do nothing: the lock ends by itself. Consider a longer password.',
          ].join('\n'),
        });
      });
    },

    /** Checks a link without using it up (the page that asks to confirm). */
    async checkLink(token: string): Promise<'ok' | 'invalid' | 'expired'> {
      const checked = await links.verify(db, token, new Date());
      return checked.ok ? 'ok' : checked.reason;
    },

    /** Uses a link once: a pass for the browser, valid until the lock the link was mailed for ends. */
    async redeemLink(token: string): Promise<LinkRedemption> {
      const checked = await links.verify(db, token, new Date());
      if (!checked.ok) return checked;
      const expiresAt = new Date(Number.parseInt(token.split('.')[1], 36) * 1000);
      // Single use: the first redemption counts 1. The counter outlives the link (its window is
      // at least as long as what is left of the link's).
      const uses = await consoleSessionsRepo.takeAttempt(db, [sha256(`unlock-used|${token}`)], windowSeconds);
      if (Object.values(uses)[0]?.attempts !== 1) return { ok: false, reason: 'used' };
      return { ok: true, pass: await passes.sign(db, checked.id, expiresAt), expiresAt };
    },
  };
}

export type AccountLock = ReturnType<typeof createAccountLock>;
