// Opening year-to-date in the annual return (docs/compliance.md, "Annual return"; written by the
// year-to-date module, 0210_opening_year_to_date.sql): each listed employee's figures from before
// this service, read apart from the paid paystubs so that the return shows them as their own fields.
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';

export interface OpeningRow {
  user_id: number;
  gross_pay: string;
  taxable_pay: string;
  tax_withheld: string;
  employee_pension: string;
  nhf: string;
  nhis: string;
  months: number;
}

export const annualReturnsOpeningRepo = {
  async openings(executor: Executor, companyId: number, year: number, userIds: number[]): Promise<OpeningRow[]> {
    if (userIds.length === 0) return [];
    return queryRows<OpeningRow>(
      executor,
      sql`SELECT user_id, gross_pay::text AS gross_pay, taxable_pay::text AS taxable_pay, tax_withheld::text AS tax_withheld,
                 employee_pension::text AS employee_pension, nhf::text AS nhf, nhis::text AS nhis, months
          FROM user_opening_ytd
          WHERE company_id = ${companyId} AND year = ${year} AND user_id = ANY(${pgArray(userIds)}::int[])`,
    );
  },
};
