// The built-in provider (decisions.md §7): the checkout page is ours (sandbox.routes.ts); verify
// reports whatever the payer chose there, and pending until they chose.
import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { walletSandboxOutcomes, walletTransactions } from '../../../db/schema/index.js';
import { parseKobo } from '../money.js';
import type { InitializeInput, PaymentProvider, VerifyResult } from './provider.js';

export function sandboxCheckoutUrl(publicUrl: string, reference: string): string {
  return `${publicUrl}/sandbox/checkout/${encodeURIComponent(reference)}`;
}

export function createSandboxProvider(deps: { db: Db; publicUrl: string }): PaymentProvider {
  return {
    name: 'sandbox',
    async initialize(input: InitializeInput) {
      return { checkoutUrl: sandboxCheckoutUrl(deps.publicUrl, input.reference) };
    },
    async verify(reference: string): Promise<VerifyResult> {
      const [row] = await deps.db
        .select({ outcome: walletSandboxOutcomes.outcome, amount: walletTransactions.amount, currency: walletTransactions.currency })
        .from(walletSandboxOutcomes)
        .innerJoin(walletTransactions, eq(walletTransactions.reference, walletSandboxOutcomes.reference))
        .where(eq(walletSandboxOutcomes.reference, reference));
      if (!row) return { status: 'pending', amountKobo: null, currency: null };
      // The sandbox "charges" exactly what was asked, like a real provider would report it.
      return { status: row.outcome, amountKobo: parseKobo(row.amount), currency: row.currency, raw: { sandbox: row.outcome } };
    },
  };
}
