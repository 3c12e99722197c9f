// Paid months written straight into the tables, for the read scenarios (remittances, other-lists):
// paying thousands of paystubs through the sandbox takes a minute and is timed by payroll-runs, so
// scenarios that time only reads insert what a paid run leaves behind in a few batched statements.
import { sql } from 'drizzle-orm';
import type { Executor } from '../../src/db/client.js';

/** `count` live, active users of the company in one statement (`<prefix>-00001`, ...). */
export async function insertUsers(db: Executor, company: { id: number; domain: string }, count: number, prefix: string) {
  await db.execute(
    sql`INSERT INTO users (company_id, employee_id, first_name, last_name, email, personal_email, unique_id, is_active, onboarding_completed)
        SELECT ${company.id}, ${`${prefix}-`} || lpad(n::text, 5, '0'), 'Payee' || n, 'Remit' || n, 'payee' || n || '@' || ${company.domain},
               'payee' || n || '.' || ${company.id} || '@personal.test', md5(${company.id} || '-' || n), true, true
        FROM generate_series(1, ${count}) AS n`,
  );
}

/** A paid run `runId` of the period with one paid paystub for every user of the company. */
export async function paidMonth(db: Executor, companyId: number, runId: string, start: string, end: string, paid: string) {
  await db.execute(
    sql`INSERT INTO payroll_runs (id, company_id, status, source, pay_period_start, pay_period_end, payment_date, paid_at, totals)
        VALUES (${runId}, ${companyId}, 'paid', 'salaries', ${start}, ${end}, ${paid}, now(), '{}'::jsonb)`,
  );
  // Figures consistent with the engine's split (40/30/20, pension 8/10, NHF 2.5): exact numerics.
  await db.execute(
    sql`INSERT INTO paystubs (company_id, user_id, pay_period_start, pay_period_end, taxable_income, reimbursements, other_allowances,
          gross_pay, net_pay, tax_withheld, pension_contribution, nhf_contribution, nhis_contribution, other_deductions,
          employer_pension_contribution, nhis_employer_contribution, employer_cost, tax_regime, status, transaction_id, paid_at,
          state_of_residence, pfa_code, rsa_pin, nhf_number, basic_pay, housing_pay, transport_pay)
        SELECT ${companyId}, u.id, ${start}, ${end}, t, 0, 0, t, t - round(t * 0.15, 2) - round(t * 0.072, 2) - round(t * 0.01, 2),
          round(t * 0.15, 2), round(t * 0.072, 2), round(t * 0.01, 2), 0, 0, round(t * 0.09, 2), 0, t + round(t * 0.09, 2), 'pita', 'paid',
          ${runId}, now(),
          (ARRAY['LA', 'FC', 'KN', 'RI', 'OG'])[1 + n % 5], (ARRAY['STANBICIBTC', 'LEADWAY', 'ACCESSARM', 'PREMIUM', 'FCMB', 'OAK'])[1 + n % 6],
          CASE WHEN n % 10 = 0 THEN NULL ELSE 'PEN' || lpad(n::text, 12, '0') END, 'NHF' || n,
          round(t * 0.4, 2), round(t * 0.3, 2), round(t * 0.2, 2)
        FROM (SELECT id, row_number() OVER (ORDER BY id) AS n, (180000 + (id % 97) * 7919)::numeric(18, 2) AS t
              FROM users WHERE company_id = ${companyId}) u`,
  );
}
