// Signed links: a token that names one row id and an expiry, with an HMAC-SHA256 over both (and
// the purpose) under a server key, so a link works without an API token, only for that row and
// only until it expires. Nothing is stored per link: every instance checks any link with the key.
//
// The key of a purpose is generated once (32 random bytes) by whichever instance needs it first and
// kept in `signing_keys` (INSERT ... ON CONFLICT DO NOTHING, then read back: concurrent first uses
// agree on the one row that won), so several instances on one PostgreSQL and restarts of the
// embedded database sign and check with the same key, with no setting to configure. A key never
// changes once committed, so each process caches it once it has read it back committed.
import crypto from 'node:crypto';
import type { Executor } from '../db/client.js';
import { signingKeysRepo } from './signed-links.repo.js';

export type LinkCheck = { ok: true; id: number } | { ok: false; reason: 'invalid' | 'expired' };

/** `<id base36>.<expiry, unix seconds base36>.<HMAC base64url>`: short, URL-safe, no padding. */
const TOKEN = /^([0-9a-z]{1,7})\.([0-9a-z]{1,8})\.([A-Za-z0-9_-]{43})$/;

export function createLinkSigner(purpose: string) {
  let cachedKey: Buffer | undefined;

  async function key(executor: Executor): Promise<Buffer> {
    if (cachedKey) return cachedKey;
    const read = () => signingKeysRepo.read(executor, purpose);
    let row = await read();
    if (!row) {
      const candidate = crypto.randomBytes(32).toString('base64');
      const inserted = await signingKeysRepo.insertIfAbsent(executor, purpose, candidate);
      // Written by this call, maybe inside a transaction that may still roll back: used, not cached
      // (whatever it signed rolls back with it); the next call reads the committed row.
      if (inserted) return Buffer.from(inserted.secret, 'base64');
      row = await read(); // another instance's, committed while this one waited on the key's row
      if (!row) throw new Error(`signing key ${purpose} missing after insert`);
    }
    cachedKey = Buffer.from(row.secret, 'base64');
    return cachedKey;
  }

  const mac = (secret: Buffer, payload: string) => crypto.createHmac('sha256', secret).update(`${purpose}:${payload}`).digest('base64url');

  return {
    /** A token for `id` valid until `expiresAt` (read with the caller's executor: it may run inside a transaction). */
    async sign(executor: Executor, id: number, expiresAt: Date): Promise<string> {
      const payload = `${id.toString(36)}.${Math.floor(expiresAt.getTime() / 1000).toString(36)}`;
      return `${payload}.${mac(await key(executor), payload)}`;
    },

    /** The id a token names when its signature holds and `now` is before its expiry. */
    async verify(executor: Executor, token: string, now: Date): Promise<LinkCheck> {
      const match = TOKEN.exec(token);
      if (!match) return { ok: false, reason: 'invalid' };
      const [, idText, expiryText, signature] = match;
      const expected = Buffer.from(mac(await key(executor), `${idText}.${expiryText}`));
      // Constant time: a forger learns nothing from how long a wrong signature takes to refuse.
      if (!crypto.timingSafeEqual(expected, Buffer.from(signature))) return { ok: false, reason: 'invalid' };
      const id = Number.parseInt(idText, 36);
      if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return { ok: false, reason: 'invalid' };
      // Only a token this server signed gets here, so "expired" never confirms a guess.
      if (now.getTime() >= Number.parseInt(expiryText, 36) * 1000) return { ok: false, reason: 'expired' };
      return { ok: true, id };
    },
  };
}

export type LinkSigner = ReturnType<typeof createLinkSigner>;
