-- The share of net pay before loans that loan repayments may take (docs/payroll.md, "Loans and
-- salary advances", "The cap"): a company setting (S1-S3; a string like every setting), either a
-- fraction `n/d` or a decimal, greater than 0 and at most 1. The default `1/3` is the constant the
-- cap used before this migration, so no company's repayments change at deploy.
ALTER TABLE contribution_settings ADD COLUMN max_deduction_ratio text NOT NULL DEFAULT '1/3';
