// The sandbox transfer provider's own book (payroll_sandbox_transfers): the SQL behind
// createSandboxTransferProvider. No company id: the reference is the key, as at a real provider.
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../../db/client.js';
import { pgArray } from '../../../db/pg-array.js';

export interface SandboxBooking {
  reference: string;
  accountNumber: string;
  amount: string;
}

export const sandboxTransfersRepo = {
  /** Books each transfer once per reference, settling `delaySeconds` later; a repeat only counts the request. */
  async book(db: Executor, transfers: readonly SandboxBooking[], delaySeconds: number): Promise<void> {
    if (transfers.length === 0) return;
    const col = (pick: (t: SandboxBooking) => string) => pgArray(transfers.map(pick));
    await db.execute(
      sql`INSERT INTO payroll_sandbox_transfers (reference, account_number, amount, settles_at)
          SELECT r, a, m, now() + make_interval(secs => ${delaySeconds})
          FROM unnest(${col((t) => t.reference)}::text[], ${col((t) => t.accountNumber)}::text[], ${col((t) => t.amount)}::numeric[]) AS x(r, a, m)
          ON CONFLICT (reference) DO UPDATE SET requests = payroll_sandbox_transfers.requests + 1`,
    );
  },

  /** The booked transfers among `references`, each with whether its settlement time has come. */
  async find(db: Executor, references: readonly string[]) {
    if (references.length === 0) return [];
    return queryRows<{ reference: string; account_number: string; due: boolean }>(
      db,
      sql`SELECT reference, account_number, settles_at <= now() AS due FROM payroll_sandbox_transfers
          WHERE reference = ANY(${pgArray(references)}::text[])`,
    );
  },
};
