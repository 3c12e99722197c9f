-- Remittance schedules (docs/compliance.md).

-- NSITF's base: `gross` (1% of gross pay, the Employees' Compensation Act 2010 s.33 "total monthly
-- payroll") or `basic_housing_transport` (the narrower base some NSITF offices accept). Text like
-- every contribution setting; the default keeps the statute's reading.
ALTER TABLE contribution_settings
  ADD COLUMN nsitf_base text NOT NULL DEFAULT 'gross';

-- The schedules of a month read a company's runs by payment date (GET /api/remittances?month=),
-- then their paystubs through paystubs_company_transaction_idx.
CREATE INDEX payroll_runs_company_payment_date_idx ON payroll_runs (company_id, payment_date);
