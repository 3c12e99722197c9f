// The interface every salary transfer provider implements (the sandbox below; Paystack Transfers
// in the next step), and the built-in sandbox.
//
// Contract (docs/payroll-runs.md, "exactly once"):
// - `sendBatch` hands up to BATCH_SIZE transfers to the provider and answers per transfer whether
//   it was accepted (it will settle later) or refused now (it never will). The provider must treat
//   a reference it already has as the same transfer, never as a new one (Paystack refuses a
//   duplicate reference; the sandbox keeps its first record).
// - `status` answers per reference: `unknown` (the provider never received it: safe to send),
//   `pending`, `success`, or `failed` with a reason. The transfer job asks before sending again
//   anything it may already have sent.
import type { Db } from '../../db/client.js';
import { sandboxTransfersRepo } from './sandbox-transfers.repo.js';

/** At most this many transfers per request (Paystack's bulk limit) and per transfer job. */
export const BATCH_SIZE = 100;

export interface TransferRequest {
  reference: string;
  /** Naira, exact decimal text ("125000.50"). */
  amount: string;
  bankName: string;
  accountNumber: string;
  /** Shown on the employee's statement: company and period. */
  reason: string;
}

export type SendResult = { reference: string; accepted: true } | { reference: string; accepted: false; reason: string };

export type TransferState =
  | { reference: string; status: 'unknown' | 'pending' | 'success' }
  | { reference: string; status: 'failed'; reason: string };

export interface TransferProvider {
  readonly name: string;
  /** When to first ask about a batch after sending it (the sandbox: its settlement delay). */
  readonly settleAfterSeconds: number;
  sendBatch(transfers: readonly TransferRequest[]): Promise<SendResult[]>;
  status(references: readonly string[]): Promise<TransferState[]>;
}

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
