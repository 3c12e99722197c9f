-- The tax year's year-end true-up (docs/payroll.md, "Year-end true-up").

-- The company setting (S1-S3; a string like every setting): on by default, it acts only under
-- tax_method annualised (cumulative needs none: each period is already trued up to the year).
ALTER TABLE contribution_settings ADD COLUMN year_end_true_up text NOT NULL DEFAULT 'true';

-- What the paystub's tax_withheld includes of the true-up (negative: a refund); 0 on other paystubs
-- and on every paystub written before this migration.
ALTER TABLE paystubs ADD COLUMN tax_true_up numeric(18,2) NOT NULL DEFAULT 0;
