-- Wallet: top-up transactions, the append-only ledger, and the sandbox provider's outcomes.
CREATE TABLE wallet_transactions (
  id bigserial PRIMARY KEY,
  reference text NOT NULL,
  company_id integer NOT NULL REFERENCES companies(id),
  amount numeric(18,2) NOT NULL CHECK (amount > 0),
  currency text NOT NULL DEFAULT 'NGN',
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'success', 'failed')),
  provider text NOT NULL,
  customer_email text NOT NULL,
  redirect_url text NOT NULL,
  checkout_url text,
  provider_payload jsonb,
  failure_reason text,
  verify_attempts integer NOT NULL DEFAULT 0,
  last_verified_at timestamptz,
  completed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX wallet_transactions_reference_key ON wallet_transactions (reference);
CREATE INDEX wallet_transactions_company_idx ON wallet_transactions (company_id, id);
CREATE INDEX wallet_transactions_pending_idx ON wallet_transactions (created_at) WHERE status = 'pending';

-- The ledger: a balance is SUM(amount) of a company's entries; rows are never updated or deleted.
CREATE TABLE wallet_entries (
  id bigserial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id),
  amount numeric(18,2) NOT NULL,
  kind text NOT NULL CHECK (kind IN ('top_up')),
  transaction_reference text REFERENCES wallet_transactions(reference),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wallet_entries_company_idx ON wallet_entries (company_id, id);
-- A second line of defence behind the pending-state guard: one credit per top-up, ever.
CREATE UNIQUE INDEX wallet_entries_top_up_key ON wallet_entries (transaction_reference) WHERE kind = 'top_up';

CREATE FUNCTION wallet_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'wallet_entries is append-only'; END $$;
CREATE TRIGGER wallet_entries_no_update_delete BEFORE UPDATE OR DELETE ON wallet_entries FOR EACH ROW EXECUTE FUNCTION wallet_entries_append_only();

-- What a payer chose on the sandbox checkout page; the sandbox provider's verify reads it.
CREATE TABLE wallet_sandbox_outcomes (
  reference text PRIMARY KEY REFERENCES wallet_transactions(reference),
  outcome text NOT NULL CHECK (outcome IN ('success', 'failed')),
  created_at timestamptz NOT NULL DEFAULT now()
);
