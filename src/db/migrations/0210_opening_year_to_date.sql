-- Opening year-to-date (docs/payroll.md, "Opening year-to-date"): what an employee was paid and had
-- withheld in a tax year before this service paid them (another employer, or this employer before it
-- moved its payroll here). One row per (company, user, year); cumulative tax counts it as earlier
-- periods of that year. Amounts in naira with 2 decimals, never negative; months is how many months
-- the figures cover (informational: the engine's period ordinal comes from the paystub's date).
CREATE TABLE user_opening_ytd (
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  year integer NOT NULL CHECK (year BETWEEN 2021 AND 2100),
  gross_pay numeric(18, 2) NOT NULL DEFAULT 0 CHECK (gross_pay >= 0),
  taxable_pay numeric(18, 2) NOT NULL DEFAULT 0 CHECK (taxable_pay >= 0),
  tax_withheld numeric(18, 2) NOT NULL DEFAULT 0 CHECK (tax_withheld >= 0),
  employee_pension numeric(18, 2) NOT NULL DEFAULT 0 CHECK (employee_pension >= 0),
  nhf numeric(18, 2) NOT NULL DEFAULT 0 CHECK (nhf >= 0),
  nhis numeric(18, 2) NOT NULL DEFAULT 0 CHECK (nhis >= 0),
  months integer NOT NULL DEFAULT 0 CHECK (months BETWEEN 0 AND 12),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, year)
);
-- The FK to companies and the annual return's read (a company's rows of a year).
CREATE INDEX user_opening_ytd_company_year_idx ON user_opening_ytd (company_id, year);
