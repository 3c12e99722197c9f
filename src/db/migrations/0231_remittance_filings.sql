-- Remittance filings and deadlines (docs/compliance.md, "Filings and deadlines"). A filing records
-- that one schedule (kind, month, authority: the state for PAYE, the PFA for pension, '' for NHF
-- and NSITF) was paid: one per schedule. remittance_notices makes each due_soon and overdue notice
-- happen once (its key, taken in the transaction that writes the webhook event and the e-mails);
-- remittance_deadline_checks is the daily job's cursor, so a batch of companies is checked once a day.
CREATE TABLE remittance_filings (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id),
  kind text NOT NULL CHECK (kind IN ('paye', 'pension', 'nhf', 'nsitf')),
  month text NOT NULL,
  authority text NOT NULL DEFAULT '',
  amount numeric(18,2) NOT NULL CHECK (amount >= 0),
  paid_on date NOT NULL,
  receipt_reference text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX remittance_filings_schedule_key ON remittance_filings (company_id, kind, month, authority);

CREATE TABLE remittance_notices (
  company_id integer NOT NULL REFERENCES companies(id),
  kind text NOT NULL,
  month text NOT NULL,
  authority text NOT NULL,
  notice text NOT NULL CHECK (notice IN ('due_soon', 'overdue')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, kind, month, authority, notice)
);

CREATE TABLE remittance_deadline_checks (
  company_id integer PRIMARY KEY REFERENCES companies(id),
  checked_on date NOT NULL
);

-- The daily job finds the companies that paid salaries lately.
CREATE INDEX payroll_runs_paid_at_idx ON payroll_runs (paid_at) WHERE paid_at IS NOT NULL;
