-- Foundation: companies and their vocabularies, users, tokens, jobs, outbox, idempotency.
CREATE TABLE companies (
  id serial PRIMARY KEY,
  name text NOT NULL,
  code text NOT NULL,
  address text,
  phone text,
  registration_id text,
  email_template text,
  payment_frequency text NOT NULL DEFAULT 'monthly',
  created_by integer REFERENCES companies(id),
  status text NOT NULL DEFAULT 'approved',
  domain text NOT NULL,
  is_active boolean NOT NULL DEFAULT true,
  api_access boolean NOT NULL DEFAULT true,
  plan text NOT NULL DEFAULT 'standard',
  employee_seq integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX companies_code_key ON companies (code);
CREATE UNIQUE INDEX companies_domain_key ON companies (domain);
CREATE UNIQUE INDEX companies_registration_id_key ON companies (registration_id);
CREATE INDEX companies_created_by_idx ON companies (created_by);

CREATE TABLE company_domains (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id),
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX company_domains_company_name_key ON company_domains (company_id, name);

CREATE TABLE user_types (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id),
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX user_types_company_name_key ON user_types (company_id, name);

CREATE TABLE roles (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id),
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX roles_company_name_key ON roles (company_id, name);

CREATE TABLE redirect_domains (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id),
  host text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX redirect_domains_company_host_key ON redirect_domains (company_id, host);

CREATE TABLE api_tokens (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id),
  token_hash text NOT NULL,
  scopes text[] NOT NULL DEFAULT ARRAY['all']::text[],
  last_used_at timestamptz NOT NULL DEFAULT now(),
  expired_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX api_tokens_token_hash_key ON api_tokens (token_hash);
CREATE INDEX api_tokens_company_idx ON api_tokens (company_id);

CREATE TABLE users (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id),
  manager_id integer REFERENCES users(id),
  employee_id text NOT NULL,
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  email_verified_at timestamptz,
  personal_email text NOT NULL,
  unique_id text NOT NULL,
  user_type_id integer REFERENCES user_types(id),
  domain_id integer REFERENCES company_domains(id),
  address text,
  phone text,
  document_paths jsonb,
  onboarding_token text,
  token_expires_at timestamptz,
  onboarding_completed boolean NOT NULL DEFAULT false,
  level text,
  title text,
  department text,
  office_location text,
  base_salary numeric(18,2),
  allowances numeric(18,2),
  payment_frequency text,
  start_date date,
  bank_name text,
  account_number text,
  password_hash text,
  roles text[] NOT NULL DEFAULT ARRAY['user']::text[],
  is_active boolean NOT NULL DEFAULT false,
  is_suspended boolean NOT NULL DEFAULT false,
  suspended_at timestamptz,
  suspension_ends_at timestamptz,
  suspension_reason text,
  suspended_roles text[],
  annual_rent_paid numeric(18,2),
  life_assurance_premium numeric(18,2),
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX users_company_id_idx ON users (company_id, id) WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX users_email_key ON users (email) WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX users_company_personal_email_key ON users (company_id, personal_email) WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX users_unique_id_key ON users (unique_id);
CREATE UNIQUE INDEX users_onboarding_token_key ON users (onboarding_token);
CREATE INDEX users_manager_id_idx ON users (manager_id);
CREATE INDEX users_user_type_id_idx ON users (user_type_id);
CREATE INDEX users_domain_id_idx ON users (domain_id);

CREATE TABLE contribution_settings (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id),
  tax_regime text NOT NULL DEFAULT 'auto',
  basic_percentage text NOT NULL DEFAULT '40',
  housing_percentage text NOT NULL DEFAULT '30',
  transport_percentage text NOT NULL DEFAULT '20',
  pension_enabled text NOT NULL DEFAULT 'true',
  employee_pension_rate text NOT NULL DEFAULT '8',
  employer_pension_rate text NOT NULL DEFAULT '10',
  nhf_enabled text NOT NULL DEFAULT 'true',
  nhf_rate text NOT NULL DEFAULT '2.5',
  nhis_enabled text NOT NULL DEFAULT 'false',
  nhis_employee_rate text NOT NULL DEFAULT '5',
  nhis_employer_rate text NOT NULL DEFAULT '10',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX contribution_settings_company_key ON contribution_settings (company_id);

CREATE TABLE jobs (
  id bigserial PRIMARY KEY,
  kind text NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  run_at timestamptz NOT NULL DEFAULT now(),
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 10,
  locked_at timestamptz,
  locked_by text,
  last_error text,
  done_at timestamptz,
  failed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_due_idx ON jobs (run_at) WHERE done_at IS NULL AND failed_at IS NULL;

CREATE TABLE outbox (
  id bigserial PRIMARY KEY,
  company_id integer REFERENCES companies(id),
  "to" text NOT NULL,
  subject text NOT NULL,
  text text NOT NULL,
  html text,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbox_to_idx ON outbox ("to", id);
CREATE INDEX outbox_company_id_idx ON outbox (company_id);

CREATE TABLE idempotency_keys (
  company_id integer NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  status_code integer,
  response_body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
