// A loan as the API shows it (docs/payroll.md, "Loans and salary advances"): amounts as decimal
// strings with two places (exact, as stored), the annual rate as a percentage string.
import type { LoanRow } from './loans.repo.js';

/** `12.5000` → `12.5`, `0.0000` → `0`: the stored rate without padding. */
export const rateText = (value: string) => (value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value);

export function serializeLoan(row: LoanRow) {
  return {
    id: row.id,
    company_id: row.company_id,
    user_id: row.user_id,
    kind: row.kind,
    principal: row.principal,
    balance: row.balance,
    instalment: row.instalment,
    start_period: row.start_period,
    interest_rate_annual: rateText(row.interest_rate_annual),
    status: row.status,
    skipped_periods: [...row.skipped_periods].sort(),
    closed_balance: row.closed_balance,
    closed_at: row.closed_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export type LoanJson = ReturnType<typeof serializeLoan>;
