// Endpoint secrets: `whsec_` + base64 of 32 random bytes, shown once, kept encrypted (AES-256-GCM)
// so the service can sign with them but the API can never read one back; and the signing itself
// (Standard Webhooks: the scheme of the `standardwebhooks` package, which the tests verify every
// delivery with; signed with node:crypto's native HMAC rather than the package's JavaScript
// SHA-256, to keep each delivery's share of the server's event loop small).
import crypto from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

export function newSecret(): string {
  return `${SECRET_PREFIX}${crypto.randomBytes(32).toString('base64')}`;
}

/**
 * The key secrets are encrypted with: WEBHOOK_SECRET_KEY (base64 of 32 bytes), or, unset, a key
 * derived from a fixed development phrase (docs/webhooks.md: set the variable in production, so a
 * database dump alone does not reveal the secrets).
 */
export function secretKey(configured: string | undefined): Buffer {
  if (configured === undefined) return crypto.createHash('sha256').update('payroll webhooks development key').digest();
  const key = Buffer.from(configured, 'base64');
  if (key.length !== 32) throw new Error('WEBHOOK_SECRET_KEY must be the base64 of 32 bytes');
  return key;
}

/** `v1.<iv>.<tag>.<ciphertext>`, all base64. */
export function encryptSecret(key: Buffer, secret: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join('.');
}

export function decryptSecret(key: Buffer, stored: string): string {
  const [version, iv, tag, ciphertext] = stored.split('.');
  if (version !== 'v1') throw new Error('unknown webhook secret format');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
}

/** The HMAC key of a `whsec_…` secret: the bytes its base64 part decodes to. */
export function signingKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/**
 * The `webhook-signature` header: one `v1,<base64 HMAC-SHA256 of "<id>.<unix seconds>.<body>">` per
 * key (signingKey), space-separated (a rotation signs with both).
 */
export function signatureHeader(keys: Buffer[], eventId: string, timestamp: Date, body: string): string {
  const signed = `${eventId}.${Math.floor(timestamp.getTime() / 1000)}.${body}`;
  return keys.map((key) => `v1,${crypto.createHmac('sha256', key).update(signed).digest('base64')}`).join(' ');
}
