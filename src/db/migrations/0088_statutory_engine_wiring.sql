-- The engine amendments (docs/payroll.md, "Statutory amendments") wired into the payroll service.
-- Every new column has a default that keeps each existing company's figures as they were.

-- Voluntary pension and the like: the employee part reduces taxable income (Pension Reform Act 2014
-- s.10(1); NTA 2025 s.30). Only an employee part on gross pay may be deductible (the API checks it;
-- the constraint keeps any other path honest).
ALTER TABLE custom_contributions
  ADD COLUMN tax_deductible boolean NOT NULL DEFAULT false,
  ADD CONSTRAINT custom_contributions_tax_deductible_check
    CHECK (NOT tax_deductible OR (apply_to = 'gross_pay' AND employee_responsibility AND employee_value IS NOT NULL));

-- How each period's tax is computed: `annualised` (annual tax ÷ N, as before) or `cumulative` (from
-- the year to date; Nigeria Tax Administration Act 2025 s.51(7)). Kept as text like every setting.
ALTER TABLE contribution_settings
  ADD COLUMN tax_method text NOT NULL DEFAULT 'annualised';

-- tax_deductions: the paystub's exact deductions for tax (D ÷ N) in DEDUCTION_UNITS_PER_KOBO (156 ×
-- 10^12 per kobo), so the year to date of the cumulative method sums exactly. Existing rows get
-- their statutory deductions (pension + NHF + NHIS), the rounded figures: the only ones they kept
-- (before this migration no paystub had a deductible custom part; a life assurance premium's share
-- was not stored and is not recovered). The snapshot (docs/statutory-data.md): the employee's
-- statutory identity and the period's basic, housing and transport amounts when the paystub was
-- computed; null on older paystubs.
ALTER TABLE paystubs
  ADD COLUMN tax_deductions numeric(40, 0),
  ADD COLUMN state_of_residence text,
  ADD COLUMN pfa_code text,
  ADD COLUMN rsa_pin text,
  ADD COLUMN nhf_number text,
  ADD COLUMN basic_pay numeric(18, 2),
  ADD COLUMN housing_pay numeric(18, 2),
  ADD COLUMN transport_pay numeric(18, 2);

UPDATE paystubs SET tax_deductions = (pension_contribution + nhf_contribution + nhis_contribution) * 100 * 156000000000000;

ALTER TABLE paystubs ALTER COLUMN tax_deductions SET NOT NULL, ALTER COLUMN tax_deductions SET DEFAULT 0;
-- (The year-to-date query of the cumulative method filters on user_id first: paystubs_user_period_key
-- serves it, so no new index slows the batch INSERT.)
