// Paystack transfer recipients (paystack_transfer_recipients): one per bank account, created once
// at Paystack and reused by every later transfer to that account, whatever the company or run.
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../../db/client.js';
import { pgArray } from '../../../db/pg-array.js';

export interface Account {
  bankCode: string;
  accountNumber: string;
}

export interface Recipient extends Account {
  recipientCode: string;
}

export const accountKey = (a: Account) => `${a.bankCode}:${a.accountNumber}`;

export const paystackRecipientsRepo = {
  /** The known recipient codes of `accounts`, by accountKey. */
  async find(db: Executor, accounts: readonly Account[]): Promise<Map<string, string>> {
    if (accounts.length === 0) return new Map();
    const rows = await queryRows<{ bank_code: string; account_number: string; recipient_code: string }>(
      db,
      sql`SELECT r.bank_code, r.account_number, r.recipient_code FROM paystack_transfer_recipients r
          JOIN unnest(${pgArray(accounts.map((a) => a.bankCode))}::text[], ${pgArray(accounts.map((a) => a.accountNumber))}::text[]) AS x(b, n)
            ON r.bank_code = x.b AND r.account_number = x.n`,
    );
    return new Map(rows.map((row) => [accountKey({ bankCode: row.bank_code, accountNumber: row.account_number }), row.recipient_code]));
  },

  /** Keeps the first code stored per account (two instances creating one at once: Paystack answers both with the same record). */
  async save(db: Executor, recipients: readonly Recipient[]): Promise<void> {
    if (recipients.length === 0) return;
    const col = (pick: (r: Recipient) => string) => pgArray(recipients.map(pick));
    await db.execute(
      sql`INSERT INTO paystack_transfer_recipients (bank_code, account_number, recipient_code)
          SELECT * FROM unnest(${col((r) => r.bankCode)}::text[], ${col((r) => r.accountNumber)}::text[], ${col((r) => r.recipientCode)}::text[])
          ON CONFLICT (bank_code, account_number) DO NOTHING`,
    );
  },
};
