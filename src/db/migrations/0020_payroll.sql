-- Payroll: custom contributions and their targets, paystubs (each carrying its contribution
-- record: the two are one-to-one, so the contribution's id is the paystub's id), the custom
-- contribution records on them, and which one_time contributions a user has had.
-- The run writes thousands of child rows per request: child tables carry no foreign keys the
-- run's own transaction already guarantees (each FK is a per-row trigger); S10 nulls
-- custom_contribution_id itself. Every lookup column is indexed.
CREATE TABLE custom_contributions (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id),
  name text NOT NULL,
  type text NOT NULL,
  apply_to text NOT NULL,
  employee_responsibility boolean NOT NULL DEFAULT false,
  employer_responsibility boolean NOT NULL DEFAULT false,
  employee_value numeric(18,2),
  employer_value numeric(18,2),
  frequency text,
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX custom_contributions_company_name_key ON custom_contributions (company_id, lower(name));
CREATE INDEX custom_contributions_company_idx ON custom_contributions (company_id, id);

CREATE TABLE custom_contribution_targets (
  id serial PRIMARY KEY,
  custom_contribution_id integer NOT NULL REFERENCES custom_contributions(id) ON DELETE CASCADE,
  user_type_id integer REFERENCES user_types(id),
  user_id integer REFERENCES users(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX custom_contribution_targets_contribution_idx ON custom_contribution_targets (custom_contribution_id);
CREATE INDEX custom_contribution_targets_user_type_idx ON custom_contribution_targets (user_type_id);
CREATE INDEX custom_contribution_targets_user_idx ON custom_contribution_targets (user_id);

CREATE TABLE paystubs (
  id serial PRIMARY KEY,
  company_id integer NOT NULL,
  user_id integer NOT NULL REFERENCES users(id),
  pay_period_start date NOT NULL,
  pay_period_end date NOT NULL,
  taxable_income numeric(18,2) NOT NULL,
  reimbursements numeric(18,2) NOT NULL,
  other_allowances numeric(18,2) NOT NULL,
  gross_pay numeric(18,2) NOT NULL,
  net_pay numeric(18,2) NOT NULL,
  tax_withheld numeric(18,2) NOT NULL,
  pension_contribution numeric(18,2) NOT NULL,
  nhf_contribution numeric(18,2) NOT NULL,
  nhis_contribution numeric(18,2) NOT NULL,
  other_deductions numeric(18,2) NOT NULL,
  employer_pension_contribution numeric(18,2) NOT NULL,
  nhis_employer_contribution numeric(18,2) NOT NULL,
  employer_cost numeric(18,2) NOT NULL,
  tax_regime text NOT NULL,
  status text NOT NULL DEFAULT 'unpaid',
  transaction_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Duplicate (user, period) refused; also serves the user_id filter (few rows per user).
CREATE UNIQUE INDEX paystubs_user_period_key ON paystubs (user_id, pay_period_start, pay_period_end);
CREATE INDEX paystubs_company_idx ON paystubs (company_id, id DESC);
CREATE INDEX paystubs_company_transaction_idx ON paystubs (company_id, transaction_id, id DESC);
CREATE INDEX paystubs_company_status_idx ON paystubs (company_id, status, id DESC);

CREATE TABLE custom_contribution_records (
  id serial PRIMARY KEY,
  contribution_id integer NOT NULL,
  custom_contribution_id integer,
  company_id integer NOT NULL,
  user_id integer NOT NULL,
  name text NOT NULL,
  employee_contribution numeric(18,2) NOT NULL,
  employer_contribution numeric(18,2) NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX custom_contribution_records_contribution_idx ON custom_contribution_records (contribution_id);
CREATE INDEX custom_contribution_records_custom_idx ON custom_contribution_records (custom_contribution_id);

CREATE TABLE custom_contribution_applications (
  custom_contribution_id integer NOT NULL REFERENCES custom_contributions(id) ON DELETE CASCADE,
  user_id integer NOT NULL,
  paystub_id integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (custom_contribution_id, user_id)
);
CREATE INDEX custom_contribution_applications_user_idx ON custom_contribution_applications (user_id);
CREATE INDEX custom_contribution_applications_paystub_idx ON custom_contribution_applications (paystub_id);
