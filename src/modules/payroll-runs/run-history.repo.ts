// SQL of the console overview's payroll history: a company's paid runs summed by month in ONE
// statement (the 12 months of the chart), found through payroll_runs_company_payment_date_idx.
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';

export interface MonthTotalsRow {
  month: string;
  runs: number;
  net_pay: string;
  tax_withheld: string;
}

export const runHistoryRepo = {
  /**
   * Net pay and tax of the runs that paid (`paid`, `partially_paid`) with a payment date from
   * `from` to `to` (inclusive), by month of that date. The sums are numeric (exact decimals), sent
   * as text. A run without a payment date is left out: it has no month to count in.
   */
  async monthlyTotals(db: Executor, companyId: number, from: string, to: string): Promise<MonthTotalsRow[]> {
    return queryRows<MonthTotalsRow>(
      db,
      sql`SELECT to_char(payment_date, 'YYYY-MM') AS month, count(*)::int AS runs,
                 coalesce(sum((totals->>'net_pay')::numeric), 0)::numeric(20, 2)::text AS net_pay,
                 coalesce(sum((totals->>'tax_withheld')::numeric), 0)::numeric(20, 2)::text AS tax_withheld
            FROM payroll_runs
           WHERE company_id = ${companyId} AND payment_date >= ${from} AND payment_date <= ${to}
             AND status IN ('paid', 'partially_paid')
           GROUP BY 1
           ORDER BY 1`,
    );
  },
};
