-- The tax year's year-end true-up (docs/payroll.md, "Year-end true-up").

-- The company setting (S1-S3; a string like every setting): it acts only under tax_method
-- annualised (cumulative needs none: each period is already trued up to the year). On for companies
-- created from now on; companies that exist keep computing as before ("false") until they turn it
-- on: their December paystubs would otherwise change at deploy (docs/payroll.md, "Year-end true-up").
ALTER TABLE contribution_settings ADD COLUMN year_end_true_up text NOT NULL DEFAULT 'false';
ALTER TABLE contribution_settings ALTER COLUMN year_end_true_up SET DEFAULT 'true';

-- What the paystub's tax_withheld includes of the true-up (negative: a refund); 0 on other paystubs
-- and on every paystub written before this migration.
ALTER TABLE paystubs ADD COLUMN tax_true_up numeric(18,2) NOT NULL DEFAULT 0;
