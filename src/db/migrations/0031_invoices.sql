-- Invoices: benefit and expense claims of employees, approved by a manager, then by finance, then
-- paid in one or more payments. Money is numeric(18,2); the CHECKs keep the arithmetic honest even
-- if a bug slipped past the service.
CREATE TABLE invoices (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id),
  user_id integer NOT NULL REFERENCES users(id),
  transaction_id text NOT NULL,
  description text NOT NULL,
  service_date date NOT NULL,
  provider_name text NOT NULL,
  total_amount numeric(18,2) NOT NULL CHECK (total_amount > 0),
  amount_requested numeric(18,2) NOT NULL CHECK (amount_requested > 0 AND amount_requested <= total_amount),
  amount_paid numeric(18,2) NOT NULL DEFAULT 0 CHECK (amount_paid >= 0),
  balance numeric(18,2) NOT NULL CHECK (balance >= 0 AND balance = amount_requested - amount_paid),
  status text NOT NULL DEFAULT 'unpaid' CHECK (status IN ('unpaid', 'pending', 'partially_paid', 'paid')),
  approval_status text NOT NULL DEFAULT 'pending' CHECK (approval_status IN ('pending', 'manager_approved', 'rejected', 'approved', 'denied')),
  category_name text NOT NULL,
  subcategory_name text,
  payment_method text NOT NULL DEFAULT 'self' CHECK (payment_method IN ('self', 'provider')),
  user_email text NOT NULL,
  relationship_manager_email text,
  finance_approver_email text,
  approved_by_manager_email text,
  comment text,
  manager_comment text,
  finance_comment text,
  manager_decided_at timestamptz,
  finance_decided_at timestamptz,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX invoices_transaction_id_key ON invoices (transaction_id);
CREATE INDEX invoices_company_created_idx ON invoices (company_id, created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX invoices_company_status_idx ON invoices (company_id, status) WHERE deleted_at IS NULL;
CREATE INDEX invoices_company_approval_idx ON invoices (company_id, approval_status) WHERE deleted_at IS NULL;
CREATE INDEX invoices_user_id_idx ON invoices (user_id);

CREATE TABLE invoice_payments (
  id serial PRIMARY KEY,
  invoice_id integer NOT NULL REFERENCES invoices(id),
  company_id integer NOT NULL REFERENCES companies(id),
  amount numeric(18,2) NOT NULL CHECK (amount > 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX invoice_payments_invoice_idx ON invoice_payments (invoice_id);
CREATE INDEX invoice_payments_company_idx ON invoice_payments (company_id);
