-- Loans and salary advances (docs/payroll.md, "Loans and salary advances"). A loan's balance falls
-- only when a paystub repaying it is paid and rises again if that payment is reversed: each
-- repayment is a deduction item of the paystub naming its loan (paystub_items.loan_id) with the
-- interest part it carried (loan_interest), so settlement knows how much principal it moved.
-- closed_balance is what settle (repaid early) or write-off closed the loan with.
CREATE TABLE loans (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id),
  user_id integer NOT NULL REFERENCES users(id),
  kind text NOT NULL CHECK (kind IN ('loan', 'advance')),
  principal numeric(18,2) NOT NULL CHECK (principal > 0),
  balance numeric(18,2) NOT NULL CHECK (balance >= 0),
  instalment numeric(18,2) NOT NULL CHECK (instalment > 0),
  start_period text NOT NULL,
  interest_rate_annual numeric(7,4) NOT NULL DEFAULT 0 CHECK (interest_rate_annual >= 0),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paid_off', 'written_off')),
  skipped_periods text[] NOT NULL DEFAULT '{}',
  closed_balance numeric(18,2),
  closed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- GET /api/loans filters (user_id, status, kind) within a company, newest first; the run's lookup
-- of active loans by user uses the first.
CREATE INDEX loans_company_user_idx ON loans (company_id, user_id, id DESC);
CREATE INDEX loans_company_status_idx ON loans (company_id, status, id DESC);
CREATE INDEX loans_company_kind_idx ON loans (company_id, kind, id DESC);
CREATE INDEX loans_user_idx ON loans (user_id);

ALTER TABLE paystub_items ADD COLUMN loan_id integer REFERENCES loans(id);
ALTER TABLE paystub_items ADD COLUMN loan_interest numeric(18,2);
CREATE INDEX paystub_items_loan_idx ON paystub_items (loan_id) WHERE loan_id IS NOT NULL;
