// The built-in sandbox transfer provider, which index.ts picks unless PAYMENT_PROVIDER=paystack comes
// with a secret key: it never calls the network and keeps its own book (sandbox-transfers.repo.ts).
import type { Db } from '../../../db/client.js';
import { sandboxTransfersRepo } from './sandbox-transfers.repo.js';
import type { TransferProvider, TransferState } from './transfer.provider.js';

export const SANDBOX_REJECTED = 'Sandbox: account rejected.';

/**
 * The sandbox never calls the network: it books each transfer in its own table (once per
 * reference, counting how often it was asked), settles it `delaySeconds` later, and fails
 * accounts that start with 999.
 */
export function createSandboxTransferProvider(deps: { db: Db; delaySeconds: number }): TransferProvider {
  const { db, delaySeconds } = deps;
  return {
    name: 'sandbox',
    settleAfterSeconds: delaySeconds,
    maxPollSeconds: Math.min(60, Math.max(1, delaySeconds)),
    async sendBatch(transfers) {
      if (transfers.length === 0) return [];
      await sandboxTransfersRepo.book(db, transfers, delaySeconds);
      return transfers.map((t) => ({ reference: t.reference, accepted: true as const }));
    },
    async status(references) {
      if (references.length === 0) return [];
      const rows = await sandboxTransfersRepo.find(db, references);
      const byRef = new Map(rows.map((row) => [row.reference, row]));
      return references.map((reference): TransferState => {
        const row = byRef.get(reference);
        if (!row) return { reference, status: 'unknown' };
        if (!row.due) return { reference, status: 'pending' };
        if (row.account_number.startsWith('999')) return { reference, status: 'failed', reason: SANDBOX_REJECTED };
        return { reference, status: 'success' };
      });
    },
  };
}
