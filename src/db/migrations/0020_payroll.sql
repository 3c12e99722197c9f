-- Payroll: custom contributions and their targets, paystubs, their contribution records and the
-- custom contribution records on them, and which one_time contributions a user has had.
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
  company_id integer NOT NULL REFERENCES companies(id),
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
  status text NOT NULL DEFAULT 'unpaid',
  transaction_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX paystubs_user_period_key ON paystubs (user_id, pay_period_start, pay_period_end);
CREATE INDEX paystubs_company_idx ON paystubs (company_id, id DESC);
CREATE INDEX paystubs_company_user_idx ON paystubs (company_id, user_id, id DESC);
CREATE INDEX paystubs_company_transaction_idx ON paystubs (company_id, transaction_id, id DESC);
CREATE INDEX paystubs_company_status_idx ON paystubs (company_id, status, id DESC);

CREATE TABLE contributions (
  id serial PRIMARY KEY,
  paystub_id integer NOT NULL REFERENCES paystubs(id),
  company_id integer NOT NULL REFERENCES companies(id),
  employee_id integer NOT NULL REFERENCES users(id),
  pay_period_start date NOT NULL,
  pay_period_end date NOT NULL,
  employee_pension_contribution numeric(18,2) NOT NULL,
  employer_pension_contribution numeric(18,2) NOT NULL,
  nhf_contribution numeric(18,2) NOT NULL,
  pit_contribution numeric(18,2) NOT NULL,
  nhis_employee_contribution numeric(18,2) NOT NULL,
  nhis_employer_contribution numeric(18,2) NOT NULL,
  employer_cost numeric(18,2) NOT NULL,
  tax_regime text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX contributions_paystub_key ON contributions (paystub_id);
CREATE INDEX contributions_company_idx ON contributions (company_id, id);
CREATE INDEX contributions_employee_idx ON contributions (employee_id, id);

CREATE TABLE custom_contribution_records (
  id serial PRIMARY KEY,
  contribution_id integer NOT NULL REFERENCES contributions(id),
  custom_contribution_id integer REFERENCES custom_contributions(id) ON DELETE SET NULL,
  company_id integer NOT NULL REFERENCES companies(id),
  user_id integer NOT NULL REFERENCES users(id),
  name text NOT NULL,
  employee_contribution numeric(18,2) NOT NULL,
  employer_contribution numeric(18,2) NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX custom_contribution_records_contribution_idx ON custom_contribution_records (contribution_id);
CREATE INDEX custom_contribution_records_custom_idx ON custom_contribution_records (custom_contribution_id);
CREATE INDEX custom_contribution_records_user_idx ON custom_contribution_records (user_id);
CREATE INDEX custom_contribution_records_company_idx ON custom_contribution_records (company_id);

CREATE TABLE custom_contribution_applications (
  custom_contribution_id integer NOT NULL REFERENCES custom_contributions(id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users(id),
  paystub_id integer NOT NULL REFERENCES paystubs(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (custom_contribution_id, user_id)
);
CREATE INDEX custom_contribution_applications_user_idx ON custom_contribution_applications (user_id);
CREATE INDEX custom_contribution_applications_paystub_idx ON custom_contribution_applications (paystub_id);
