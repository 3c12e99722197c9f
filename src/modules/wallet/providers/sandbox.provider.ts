// The built-in provider (docs/wallet.md, "The wallet rules"): the checkout page is ours
// (sandbox.routes.ts); verify reports whatever the payer chose there, and pending until they chose.
// The checkout link carries a secret besides the reference: references travel in logs, redirects
// and W2 answers, and knowing one must not be enough to "pay" (credit a wallet with nothing).
import crypto from 'node:crypto';
import type { Db } from '../../../db/client.js';
import { parseKobo } from '../../../tax-engine/money.js';
import type { InitializeInput, PaymentProvider, VerifyResult } from './payment.provider.js';
import { sandboxRepo } from './sandbox.repo.js';

export function sandboxCheckoutUrl(publicUrl: string, reference: string, secret: string): string {
  return `${publicUrl}/sandbox/checkout/${encodeURIComponent(reference)}?secret=${encodeURIComponent(secret)}`;
}

const sha256 = (text: string) => crypto.createHash('sha256').update(text, 'utf8').digest();

/** Whether `presented` is the secret whose SHA-256 (hex) is stored; constant time over the digests. */
export function validCheckoutSecret(storedHash: string | null, presented: unknown): boolean {
  if (!storedHash || typeof presented !== 'string' || presented.length === 0 || presented.length > 200) return false;
  return crypto.timingSafeEqual(sha256(presented), Buffer.from(storedHash, 'hex'));
}

export function createSandboxProvider(deps: { db: Db; publicUrl: string }): PaymentProvider {
  return {
    name: 'sandbox',
    async initialize(input: InitializeInput) {
      // 192 random bits; only the digest is kept (the link itself is stored as checkout_url for the company).
      const secret = crypto.randomBytes(24).toString('base64url');
      await sandboxRepo.setCheckoutSecretHash(deps.db, input.reference, sha256(secret).toString('hex'));
      return { checkoutUrl: sandboxCheckoutUrl(deps.publicUrl, input.reference, secret) };
    },
    async verify(reference: string): Promise<VerifyResult> {
      const row = await sandboxRepo.outcome(deps.db, reference);
      if (!row) return { status: 'pending', amountKobo: null, currency: null };
      // The sandbox "charges" exactly what was asked, like a real provider would report it.
      return { status: row.outcome, amountKobo: parseKobo(row.amount), currency: row.currency, raw: { sandbox: row.outcome } };
    },
  };
}
