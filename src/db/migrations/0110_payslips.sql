-- Payslips (docs/compliance.md, "Payslips"): the server's signing keys, one per purpose, generated
-- once by whichever instance needs one first (INSERT ... ON CONFLICT DO NOTHING, then read back), so
-- that every instance on one PostgreSQL and every restart of the embedded database signs and checks
-- links with the same key without a new required setting. Only the server reads this table.
CREATE TABLE signing_keys (
  purpose text PRIMARY KEY,
  secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- The year to date of a payslip sums the employee's paystubs of one calendar year up to its period end.
CREATE INDEX paystubs_user_period_end_idx ON paystubs (user_id, pay_period_end);
