// Which providers this instance can talk to. New top-ups use the configured one; verification uses
// the provider stored on each transaction, so switching PAYMENT_PROVIDER never strands a top-up.
import type { Config } from '../../../config.js';
import type { Db } from '../../../db/client.js';
import type { PaymentProvider } from './payment.provider.js';
import { createPaystackProvider } from './paystack.provider.js';
import { createSandboxProvider } from './sandbox.provider.js';

export interface Providers {
  /** The provider for new top-ups (PAYMENT_PROVIDER). */
  current: PaymentProvider;
  get(name: string): PaymentProvider | undefined;
}

export function createProviders(config: Config, db: Db, overrides: { paystackTimeoutMs?: number } = {}): Providers {
  const all = new Map<string, PaymentProvider>();
  all.set('sandbox', createSandboxProvider({ db, publicUrl: config.publicUrl }));
  if (config.paystackSecretKey) {
    all.set(
      'paystack',
      createPaystackProvider({
        secretKey: config.paystackSecretKey,
        baseUrl: config.paystackBaseUrl,
        timeoutMs: overrides.paystackTimeoutMs,
      }),
    );
  }
  const current = all.get(config.paymentProvider);
  if (!current) throw new Error('PAYMENT_PROVIDER=paystack needs PAYSTACK_SECRET_KEY');
  return { current, get: (name) => all.get(name) };
}
