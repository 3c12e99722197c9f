-- Paystack Transfers for salary payments (docs/payroll-runs.md, "Paystack"):
-- each transfer carries the bank code and the holder's name it was funded with (a recipient needs
-- both; null on transfers funded before this migration, which fall back to the employee's record);
-- and the transfer recipients created at Paystack, once per bank account, reused by every run.
ALTER TABLE payroll_transfers ADD COLUMN bank_code text;
ALTER TABLE payroll_transfers ADD COLUMN account_name text;

-- No company id: a recipient is an account at the Paystack integration, shared by every company
-- paying into that account (Paystack itself answers an existing account with the same record).
CREATE TABLE paystack_transfer_recipients (
  bank_code text NOT NULL,
  account_number text NOT NULL,
  recipient_code text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (bank_code, account_number)
);
