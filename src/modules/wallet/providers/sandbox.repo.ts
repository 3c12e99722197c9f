// The SQL of the built-in provider (sandbox.provider.ts): the checkout secret's digest on the transaction and
// the outcome the payer chose on the checkout page.
import { eq } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { walletSandboxOutcomes, walletTransactions } from '../../../db/schema/index.js';

export const sandboxRepo = {
  async setCheckoutSecretHash(executor: Executor, reference: string, secretHash: string): Promise<void> {
    await executor.update(walletTransactions).set({ checkoutSecretHash: secretHash }).where(eq(walletTransactions.reference, reference));
  },

  /** The payer's choice for a reference with the transaction's amount and currency; none until they chose. */
  async outcome(executor: Executor, reference: string) {
    const [row] = await executor
      .select({ outcome: walletSandboxOutcomes.outcome, amount: walletTransactions.amount, currency: walletTransactions.currency })
      .from(walletSandboxOutcomes)
      .innerJoin(walletTransactions, eq(walletTransactions.reference, walletSandboxOutcomes.reference))
      .where(eq(walletSandboxOutcomes.reference, reference));
    return row;
  },
};
