// All SQL of opening year-to-date (0210_opening_year_to_date.sql; docs/payroll.md, "Opening
// year-to-date"). Company id first everywhere: another company's user is simply not found.
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';

/** A stored opening, amounts as numeric text. */
export interface OpeningRow {
  user_id: number;
  year: number;
  gross_pay: string;
  taxable_pay: string;
  tax_withheld: string;
  employee_pension: string;
  nhf: string;
  nhis: string;
  months: number;
  created_at: string;
  updated_at: string;
}

/** The same figures summed over the user's paystubs of the year (numeric text). */
export interface PaidRow {
  paystubs: number;
  gross_pay: string;
  taxable_pay: string;
  tax_withheld: string;
  employee_pension: string;
  nhf: string;
  nhis: string;
}

export interface OpeningWrite {
  userId: number;
  year: number;
  /** Naira text with 2 decimals, by field name. */
  amounts: Record<'gross_pay' | 'taxable_pay' | 'tax_withheld' | 'employee_pension' | 'nhf' | 'nhis', string>;
  months: number;
}

const COLUMNS = sql`user_id, year, gross_pay::text AS gross_pay, taxable_pay::text AS taxable_pay, tax_withheld::text AS tax_withheld,
  employee_pension::text AS employee_pension, nhf::text AS nhf, nhis::text AS nhis, months,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`;

export const yearToDateRepo = {
  /** Whether the user is a live user of the company; `lock` holds the row for the rest of the transaction. */
  async userExists(executor: Executor, companyId: number, userId: number, lock = false): Promise<boolean> {
    const rows = await queryRows<{ id: number }>(
      executor,
      lock
        ? sql`SELECT id FROM users WHERE company_id = ${companyId} AND id = ${userId} AND deleted_at IS NULL FOR UPDATE`
        : sql`SELECT id FROM users WHERE company_id = ${companyId} AND id = ${userId} AND deleted_at IS NULL`,
    );
    return rows.length > 0;
  },

  /** Live users of the company by lower-cased e-mail (the CSV's key). */
  async usersByEmail(executor: Executor, companyId: number, emails: string[]): Promise<Map<string, number>> {
    if (emails.length === 0) return new Map();
    const rows = await queryRows<{ id: number; email: string }>(
      executor,
      sql`SELECT id, lower(email) AS email FROM users
          WHERE company_id = ${companyId} AND deleted_at IS NULL AND lower(email) = ANY(${pgArray(emails)}::text[])`,
    );
    return new Map(rows.map((row) => [row.email, row.id]));
  },

  async find(executor: Executor, companyId: number, userId: number, year: number): Promise<OpeningRow | undefined> {
    const [row] = await queryRows<OpeningRow>(
      executor,
      sql`SELECT ${COLUMNS} FROM user_opening_ytd WHERE company_id = ${companyId} AND user_id = ${userId} AND year = ${year}`,
    );
    return row;
  },

  /** Insert or replace each opening (one statement); answers nothing: callers read back. */
  async upsert(executor: Executor, companyId: number, rows: readonly OpeningWrite[]): Promise<void> {
    if (rows.length === 0) return;
    const col = <T extends string | number>(pick: (row: OpeningWrite) => T) => pgArray(rows.map(pick));
    await executor.execute(
      sql`INSERT INTO user_opening_ytd (company_id, user_id, year, gross_pay, taxable_pay, tax_withheld, employee_pension, nhf, nhis, months)
          SELECT ${companyId}, u, y, g, t, w, p, f, h, m
          FROM unnest(${col((r) => r.userId)}::int[], ${col((r) => r.year)}::int[], ${col((r) => r.amounts.gross_pay)}::numeric[],
                      ${col((r) => r.amounts.taxable_pay)}::numeric[], ${col((r) => r.amounts.tax_withheld)}::numeric[],
                      ${col((r) => r.amounts.employee_pension)}::numeric[], ${col((r) => r.amounts.nhf)}::numeric[],
                      ${col((r) => r.amounts.nhis)}::numeric[], ${col((r) => r.months)}::int[]) AS x(u, y, g, t, w, p, f, h, m)
          ON CONFLICT (user_id, year) DO UPDATE SET gross_pay = EXCLUDED.gross_pay, taxable_pay = EXCLUDED.taxable_pay,
            tax_withheld = EXCLUDED.tax_withheld, employee_pension = EXCLUDED.employee_pension, nhf = EXCLUDED.nhf,
            nhis = EXCLUDED.nhis, months = EXCLUDED.months, updated_at = now()`,
    );
  },

  /**
   * What this service paid the user in the company in the year: their paystubs whose period ends in
   * it, except failed and cancelled ones (as cumulative tax counts them). Taxable pay is T plus the
   * pay items' taxable part, as the cumulative year to date reads it.
   */
  async paidInYear(executor: Executor, companyId: number, userId: number, year: number): Promise<PaidRow> {
    const [row] = await queryRows<PaidRow>(
      executor,
      sql`SELECT count(*)::int AS paystubs, coalesce(sum(gross_pay), 0)::text AS gross_pay,
                 coalesce(sum(taxable_income + taxable_items), 0)::text AS taxable_pay, coalesce(sum(tax_withheld), 0)::text AS tax_withheld,
                 coalesce(sum(pension_contribution), 0)::text AS employee_pension, coalesce(sum(nhf_contribution), 0)::text AS nhf,
                 coalesce(sum(nhis_contribution), 0)::text AS nhis
          FROM paystubs
          WHERE user_id = ${userId} AND company_id = ${companyId} AND status NOT IN ('cancelled', 'failed')
            AND pay_period_end >= ${`${year}-01-01`}::date AND pay_period_end <= ${`${year}-12-31`}::date`,
    );
    return row;
  },
};
