// All SQL of the wallet. Company-facing methods take companyId first; the few that take only a
// reference serve verification (job, webhook, sandbox page), where the reference is the key.

import { and, desc, eq, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import { redirectDomains, walletEntries, walletSandboxOutcomes, walletTransactions } from '../../db/schema/index.js';

export type WalletTransactionRow = typeof walletTransactions.$inferSelect;

export type LedgerType = 'top_up' | 'payroll_debit' | 'payroll_refund';

export interface LedgerRow {
  id: number;
  kind: LedgerType;
  amount: string;
  balance_after: string | null;
  reference: string | null;
  description: string | null;
  created_at: Date | string;
}

export interface Refund {
  companyId: number;
  /** The failed transfer's reference: one refund per reference (unique index). */
  reference: string;
  amount: string;
  description: string;
}

export interface NewPending {
  reference: string;
  amount: string;
  provider: string;
  customerEmail: string;
  redirectUrl: string;
}

export const walletRepo = {
  async redirectHosts(db: Executor, companyId: number): Promise<string[]> {
    const rows = await db.select({ host: redirectDomains.host }).from(redirectDomains).where(eq(redirectDomains.companyId, companyId));
    return rows.map((row) => row.host);
  },

  async createPending(tx: Executor, companyId: number, input: NewPending): Promise<void> {
    await tx.insert(walletTransactions).values({ companyId, ...input, currency: 'NGN', status: 'pending' });
  },

  async setCheckoutUrl(db: Executor, companyId: number, reference: string, checkoutUrl: string): Promise<void> {
    await db
      .update(walletTransactions)
      .set({ checkoutUrl, updatedAt: sql`now()` })
      .where(and(eq(walletTransactions.companyId, companyId), eq(walletTransactions.reference, reference)));
  },

  async findByReference(db: Executor, companyId: number, reference: string): Promise<WalletTransactionRow | undefined> {
    const [row] = await db
      .select()
      .from(walletTransactions)
      .where(and(eq(walletTransactions.companyId, companyId), eq(walletTransactions.reference, reference)));
    return row;
  },

  /** Verification only: the reference alone identifies the top-up. */
  async findForVerification(db: Executor, reference: string): Promise<WalletTransactionRow | undefined> {
    const [row] = await db.select().from(walletTransactions).where(eq(walletTransactions.reference, reference));
    return row;
  },

  /** Counts a verification attempt; returns the new count. */
  async noteVerifyAttempt(db: Executor, reference: string): Promise<number> {
    const rows = await queryRows<{ verify_attempts: number }>(
      db,
      sql`UPDATE wallet_transactions SET verify_attempts = verify_attempts + 1, last_verified_at = now()
          WHERE reference = ${reference} RETURNING verify_attempts`,
    );
    return rows[0]?.verify_attempts ?? 0;
  },

  /**
   * The exactly-once credit: the status change is guarded by the pending state and the ledger entry
   * is written only when this call won it, both in the caller's transaction. Returns true if credited.
   */
  async creditIfPending(tx: Executor, reference: string, payload: unknown): Promise<boolean> {
    const won = await queryRows<{ company_id: number; amount: string }>(
      tx,
      sql`UPDATE wallet_transactions
          SET status = 'success', completed_at = now(), updated_at = now(), provider_payload = ${JSON.stringify(payload ?? null)}::jsonb
          WHERE reference = ${reference} AND status = 'pending'
          RETURNING company_id, amount::text AS amount`,
    );
    if (won.length === 0) return false;
    // balance_after and ledger_seq are the trigger's (0081, 0181).
    await tx.execute(
      sql`INSERT INTO wallet_entries (company_id, amount, kind, transaction_reference)
          VALUES (${won[0].company_id}, ${won[0].amount}::numeric, 'top_up', ${reference})`,
    );
    return true;
  },

  /** pending → failed; returns true if this call made the change. */
  async failIfPending(db: Executor, reference: string, reason: string, payload: unknown): Promise<boolean> {
    const rows = await queryRows<{ id: number }>(
      db,
      sql`UPDATE wallet_transactions
          SET status = 'failed', failure_reason = ${reason}, completed_at = now(), updated_at = now(),
              provider_payload = COALESCE(${payload === undefined ? null : JSON.stringify(payload)}::jsonb, provider_payload)
          WHERE reference = ${reference} AND status = 'pending'
          RETURNING id`,
    );
    return rows.length > 0;
  },

  /**
   * A payment the provider confirmed after we had expired the top-up: it stays failed (no credit,
   * states never go back), but is marked for reconciliation and shows in W2's failure_reason.
   */
  async markPaidAfterExpiry(db: Executor, reference: string, payload: unknown): Promise<boolean> {
    const rows = await queryRows<{ id: number }>(
      db,
      sql`UPDATE wallet_transactions SET failure_reason = 'paid_after_expiry', updated_at = now(), provider_payload = ${JSON.stringify(payload ?? null)}::jsonb
          WHERE reference = ${reference} AND status = 'failed' AND failure_reason = 'expired'
          RETURNING id`,
    );
    return rows.length > 0;
  },

  /**
   * Balance as decimal strings, and the part of it that came from sandbox top-ups (test money:
   * nobody paid it): the company's one wallet_balances row, which the ledger trigger moves with
   * every entry (0081, 0094); no row yet means no entry yet.
   */
  async balance(db: Executor, companyId: number): Promise<{ balance: string; sandbox: string }> {
    const rows = await queryRows<{ balance: string; sandbox: string }>(
      db,
      sql`SELECT balance::text AS balance, sandbox::text AS sandbox FROM wallet_balances WHERE company_id = ${companyId}`,
    );
    return rows[0] ?? { balance: '0.00', sandbox: '0.00' };
  },

  /** The balance (decimal text), row-locked until the caller's transaction ends. */
  async lockBalance(tx: Executor, companyId: number): Promise<string> {
    const rows = await queryRows<{ balance: string }>(
      tx,
      sql`SELECT balance::text AS balance FROM wallet_balances WHERE company_id = ${companyId} FOR UPDATE`,
    );
    return rows[0]?.balance ?? '0.00';
  },

  /** One payroll debit entry; the database refuses it (CHECK) if the balance cannot cover it. Returns balance_after. */
  async insertDebit(tx: Executor, companyId: number, entry: { reference: string; amount: string; description: string }): Promise<string> {
    const rows = await queryRows<{ balance_after: string }>(
      tx,
      sql`INSERT INTO wallet_entries (company_id, amount, kind, reference, description)
          VALUES (${companyId}, -(${entry.amount}::numeric), 'payroll_debit', ${entry.reference}, ${entry.description})
          RETURNING balance_after::text AS balance_after`,
    );
    return rows[0].balance_after;
  },

  /** Refund entries, one statement (each names its company). A second refund of one reference violates the unique index. */
  async insertRefunds(tx: Executor, refunds: readonly Refund[]): Promise<void> {
    if (refunds.length === 0) return;
    const col = (pick: (r: Refund) => string | number) => pgArray(refunds.map(pick));
    await tx.execute(
      sql`INSERT INTO wallet_entries (company_id, amount, kind, reference, description)
          SELECT c, m, 'payroll_refund', r, d FROM unnest(${col((r) => r.companyId)}::int[], ${col((r) => r.amount)}::numeric[],
            ${col((r) => r.reference)}::text[], ${col((r) => r.description)}::text[]) AS x(c, m, r, d)`,
    );
  },

  async countLedger(db: Executor, companyId: number): Promise<number> {
    const [row] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM wallet_entries WHERE company_id = ${companyId}`);
    return row.n;
  },

  /** The entries of one kind with these references (a top-up's is its transaction_reference). */
  async entriesByReference(tx: Executor, kind: LedgerType, references: string[]) {
    return queryRows<LedgerRow & { company_id: number }>(
      tx,
      sql`SELECT id, company_id, kind, amount::text AS amount, balance_after::text AS balance_after,
                 COALESCE(reference, transaction_reference) AS reference, description, created_at
          FROM wallet_entries WHERE kind = ${kind} AND COALESCE(reference, transaction_reference) = ANY(${pgArray(references)}::text[])`,
    );
  },

  /**
   * Ledger entries for GET /api/wallet/transactions, newest first: by ledger_seq, the order in which
   * they moved the balance (0181), so each balance_after is the previous one plus its amount.
   */
  async ledgerPage(db: Executor, companyId: number, limit: number, offset: number): Promise<LedgerRow[]> {
    return queryRows<LedgerRow>(
      db,
      sql`SELECT id, kind, amount::text AS amount, balance_after::text AS balance_after,
                 COALESCE(reference, transaction_reference) AS reference, description, created_at
          FROM wallet_entries WHERE company_id = ${companyId} ORDER BY ledger_seq DESC LIMIT ${limit} OFFSET ${offset}`,
    );
  },

  /** Ledger entries, newest first (ledger order, as ledgerPage), each with whether it is sandbox money. */
  async listEntries(db: Executor, companyId: number, limit: number, offset: number) {
    const rows = await db
      .select({ entry: walletEntries, provider: walletTransactions.provider })
      .from(walletEntries)
      .leftJoin(walletTransactions, eq(walletTransactions.reference, walletEntries.transactionReference))
      .where(eq(walletEntries.companyId, companyId))
      .orderBy(desc(walletEntries.ledgerSeq))
      .limit(limit)
      .offset(offset);
    return rows.map((row) => ({ ...row.entry, sandbox: row.provider === 'sandbox' }));
  },

  async listTransactions(db: Executor, companyId: number, limit: number, offset: number) {
    return db
      .select()
      .from(walletTransactions)
      .where(eq(walletTransactions.companyId, companyId))
      .orderBy(desc(walletTransactions.id))
      .limit(limit)
      .offset(offset);
  },

  /** Records the payer's choice once; a second click changes nothing. */
  async recordSandboxOutcome(db: Executor, reference: string, outcome: 'success' | 'failed'): Promise<void> {
    await db.insert(walletSandboxOutcomes).values({ reference, outcome }).onConflictDoNothing();
  },

  async sandboxOutcome(db: Executor, reference: string): Promise<'success' | 'failed' | undefined> {
    const [row] = await db.select().from(walletSandboxOutcomes).where(eq(walletSandboxOutcomes.reference, reference));
    return row?.outcome;
  },
};
