// The SQL of the loans report (docs/payroll.md, "Loans report"): each loan of the company with its
// employee and what paid paystubs repaid of it (principal and interest), in one statement. Only
// paid paystubs count: an unpaid, held or processing one has not moved money, and a failed or
// cancelled one never will (the balance moves the same way, loans.repo.ts applyPaid).
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';

export interface LoanReportRow {
  id: number;
  user_id: number;
  employee_id: string;
  first_name: string;
  last_name: string;
  kind: 'loan' | 'advance';
  status: 'active' | 'paid_off' | 'written_off';
  start_period: string;
  principal: string;
  instalment: string;
  interest_rate_annual: string;
  repaid_principal: string;
  interest_paid: string;
  repayments: number;
  last_repayment_period: string | null;
  closed_balance: string | null;
  balance: string;
}

export const loansReportRepo = {
  async rows(executor: Executor, companyId: number, filters: { status?: string; kind?: string }): Promise<LoanReportRow[]> {
    return queryRows<LoanReportRow>(
      executor,
      sql`SELECT l.id, l.user_id, u.employee_id, u.first_name, u.last_name, l.kind, l.status, l.start_period,
                 l.principal::text AS principal, l.instalment::text AS instalment, l.interest_rate_annual::text AS interest_rate_annual,
                 coalesce(r.principal, 0.00)::text AS repaid_principal, coalesce(r.interest, 0.00)::text AS interest_paid,
                 coalesce(r.repayments, 0)::int AS repayments, r.last_period AS last_repayment_period,
                 l.closed_balance::text AS closed_balance, l.balance::text AS balance
          FROM loans l
          JOIN users u ON u.id = l.user_id
          LEFT JOIN LATERAL (
            SELECT sum(i.amount - coalesce(i.loan_interest, 0)) AS principal, sum(coalesce(i.loan_interest, 0)) AS interest,
                   count(*) AS repayments, max(to_char(p.pay_period_end, 'YYYY-MM')) AS last_period
            FROM paystub_items i JOIN paystubs p ON p.id = i.paystub_id
            WHERE i.loan_id = l.id AND i.company_id = ${companyId} AND p.status = 'paid'
          ) r ON true
          WHERE l.company_id = ${companyId}
            ${filters.status === undefined ? sql`` : sql`AND l.status = ${filters.status}`}
            ${filters.kind === undefined ? sql`` : sql`AND l.kind = ${filters.kind}`}
          ORDER BY l.id`,
    );
  },
};
