-- Console → Payroll sorted by pay period (docs/console.md, "Payroll runs"): a page of one company's
-- runs by period, either direction, read from this index instead of sorting the company's runs for
-- every page (payroll-runs.repo.ts `page`). Newest-created first already reads
-- payroll_runs_company_idx (0080), backwards for the other direction.
CREATE INDEX payroll_runs_company_period_idx ON payroll_runs (company_id, pay_period_start, id);
