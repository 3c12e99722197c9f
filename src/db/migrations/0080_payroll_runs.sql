-- Payroll runs (docs/payroll-runs.md): the run header, the paystubs' payment fields, one row per
-- transfer attempt, and the sandbox transfer provider's own record of what it was asked to pay.
CREATE TABLE payroll_runs (
  id text PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id),
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'approved', 'processing', 'paid', 'partially_paid', 'failed', 'cancelled')),
  source text NOT NULL CHECK (source IN ('paystubs', 'salaries')),
  pay_period_start date NOT NULL,
  pay_period_end date NOT NULL,
  payment_date date,
  created_by_email text,
  approved_by_email text,
  approved_at timestamptz,
  paid_at timestamptz,
  cancelled_at timestamptz,
  -- Funding attempts so far: 1 after pay, +1 per retry; the debit and the transfer references carry it.
  attempt integer NOT NULL DEFAULT 0,
  totals jsonb NOT NULL,
  skipped jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payroll_runs_company_idx ON payroll_runs (company_id, created_at DESC, id DESC);
CREATE INDEX payroll_runs_company_status_idx ON payroll_runs (company_id, status, created_at DESC);

ALTER TABLE paystubs ADD COLUMN paid_at timestamptz;
ALTER TABLE paystubs ADD COLUMN payment_reference text;
ALTER TABLE paystubs ADD COLUMN failure_reason text;
ALTER TABLE paystubs ADD CONSTRAINT paystubs_status_check CHECK (status IN ('unpaid', 'processing', 'paid', 'failed', 'cancelled'));
-- A cancelled run's paystubs no longer hold their (user, period).
DROP INDEX paystubs_user_period_key;
CREATE UNIQUE INDEX paystubs_user_period_key ON paystubs (user_id, pay_period_start, pay_period_end) WHERE status <> 'cancelled';
-- Settlement finds a paystub by its current transfer reference; one reference is one paystub attempt.
CREATE UNIQUE INDEX paystubs_payment_reference_key ON paystubs (payment_reference);

-- One row per transfer attempt of a paystub (a retry makes a new one with a new reference).
-- status: queued (funded, not yet handed to the provider) → sending (about to be, or being, handed
-- over) → sent (the provider accepted it) → paid | failed.
CREATE TABLE payroll_transfers (
  reference text PRIMARY KEY,
  company_id integer NOT NULL,
  run_id text NOT NULL,
  paystub_id integer NOT NULL,
  attempt integer NOT NULL,
  batch integer NOT NULL,
  amount numeric(18,2) NOT NULL CHECK (amount >= 0),
  bank_name text NOT NULL,
  account_number text NOT NULL,
  provider text NOT NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'paid', 'failed')),
  failure_reason text,
  sent_at timestamptz,
  settled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payroll_transfers_batch_idx ON payroll_transfers (run_id, attempt, batch);
CREATE INDEX payroll_transfers_company_idx ON payroll_transfers (company_id, run_id);
CREATE INDEX payroll_transfers_paystub_idx ON payroll_transfers (paystub_id);

-- The sandbox transfer provider's books: what it accepted, once per reference, and how often it was asked.
CREATE TABLE payroll_sandbox_transfers (
  reference text PRIMARY KEY,
  account_number text NOT NULL,
  amount numeric(18,2) NOT NULL,
  requests integer NOT NULL DEFAULT 1,
  settles_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
