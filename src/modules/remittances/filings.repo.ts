// All SQL of remittance filings and deadline notices (docs/compliance.md, "Filings and deadlines").
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';

export interface FilingRow {
  id: number;
  kind: 'paye' | 'pension' | 'nhf' | 'nsitf';
  month: string;
  /** The state (PAYE) or PFA (pension) code; '' for NHF and NSITF. */
  authority: string;
  amount: string;
  paid_on: string;
  receipt_reference: string;
  created_at: Date | string;
}

const COLUMNS = sql.raw(`id, kind, month, authority, amount::text AS amount, paid_on::text AS paid_on, receipt_reference, created_at`);

export const filingsRepo = {
  /** The new filing, or undefined when the schedule already has one. */
  async insert(
    executor: Executor,
    companyId: number,
    v: { kind: string; month: string; authority: string; amount: string; paidOn: string; receiptReference: string },
  ): Promise<FilingRow | undefined> {
    const [row] = await queryRows<FilingRow>(
      executor,
      sql`INSERT INTO remittance_filings (company_id, kind, month, authority, amount, paid_on, receipt_reference)
          VALUES (${companyId}, ${v.kind}, ${v.month}, ${v.authority}, ${v.amount}::numeric, ${v.paidOn}, ${v.receiptReference})
          ON CONFLICT (company_id, kind, month, authority) DO NOTHING
          RETURNING ${COLUMNS}`,
    );
    return row;
  },

  /** The company's filings of these months. */
  ofMonths(executor: Executor, companyId: number, months: string[]): Promise<FilingRow[]> {
    return queryRows<FilingRow>(
      executor,
      sql`SELECT ${COLUMNS} FROM remittance_filings WHERE company_id = ${companyId} AND month = ANY(${pgArray(months)}::text[])`,
    );
  },

  /** Takes the notices' once-keys; answers the keys that were new (`kind|month|authority|notice`). */
  async claimNotices(
    executor: Executor,
    companyId: number,
    notices: { kind: string; month: string; authority: string; notice: string }[],
  ): Promise<Set<string>> {
    if (notices.length === 0) return new Set();
    const rows = await queryRows<{ key: string }>(
      executor,
      sql`INSERT INTO remittance_notices (company_id, kind, month, authority, notice)
          SELECT ${companyId}, * FROM unnest(${pgArray(notices.map((n) => n.kind))}::text[], ${pgArray(notices.map((n) => n.month))}::text[],
                                             ${pgArray(notices.map((n) => n.authority))}::text[], ${pgArray(notices.map((n) => n.notice))}::text[])
          ON CONFLICT DO NOTHING
          RETURNING kind || '|' || month || '|' || authority || '|' || notice AS key`,
    );
    return new Set(rows.map((row) => row.key));
  },

  /**
   * Up to `limit` companies that paid salaries in the last 100 days and were not checked on
   * `today`, marked checked in the same statement (the daily job's cursor).
   */
  claimCompaniesToCheck(executor: Executor, today: string, limit: number): Promise<{ company_id: number }[]> {
    return queryRows<{ company_id: number }>(
      executor,
      sql`INSERT INTO remittance_deadline_checks (company_id, checked_on)
          SELECT DISTINCT r.company_id, ${today}::date FROM payroll_runs r
          WHERE r.paid_at >= now() - interval '100 days'
            AND NOT EXISTS (SELECT 1 FROM remittance_deadline_checks c WHERE c.company_id = r.company_id AND c.checked_on >= ${today}::date)
          LIMIT ${limit}
          ON CONFLICT (company_id) DO UPDATE SET checked_on = excluded.checked_on
          RETURNING company_id`,
    );
  },
};
