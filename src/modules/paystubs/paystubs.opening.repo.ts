// Opening year-to-date as the cumulative method reads it (docs/payroll.md, "Opening year-to-date";
// the figures are written by the year-to-date module, 0210_opening_year_to_date.sql). Kept apart from
// paystubs.repo.ts: one read, in the shape of the stored paystubs' year to date (paystubs.ytd.rules.ts).
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import { DEDUCTION_UNITS_PER_KOBO } from '../../tax-engine/cumulative.js';
import type { PlanYtdRow } from './paystubs.ytd.rules.js';

export const paystubsOpeningRepo = {
  /**
   * The users' opening figures of the years `fromYear`..`toYear` as one earlier period each, dated
   * 1 January so that every paystub of the year counts it (YtdLedger.before): taxable pay joins T,
   * tax withheld joins what was withheld, and the employee's pension, NHF and NHIS are deductions
   * for tax (D ÷ N summed), in DEDUCTION_UNITS_PER_KOBO: kobo × 156 × 10^12.
   */
  async openings(executor: Executor, companyId: number, userIds: number[], fromYear: number, toYear: number): Promise<PlanYtdRow[]> {
    if (userIds.length === 0) return [];
    return queryRows<PlanYtdRow>(
      executor,
      sql`SELECT user_id, make_date(year, 1, 1)::text AS pay_period_end, taxable_pay::text AS taxable_income,
                 (((employee_pension + nhf + nhis) * 100)::numeric(40, 0) * ${DEDUCTION_UNITS_PER_KOBO.toString()}::numeric(40, 0))::text AS tax_deductions,
                 tax_withheld::text AS tax_withheld
          FROM user_opening_ytd
          WHERE user_id = ANY(${pgArray(userIds)}::int[]) AND company_id = ${companyId} AND year BETWEEN ${fromYear} AND ${toYear}
          ORDER BY user_id, year`,
    );
  },
};
