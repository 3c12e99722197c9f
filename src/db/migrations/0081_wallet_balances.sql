-- The wallet can now be spent (payroll runs). The balance stays the sum of the ledger, and the
-- database itself refuses any entry that would take it below zero: every ledger insert, whoever
-- writes it (top-up credit, payroll debit, refund), moves wallet_balances in the same statement
-- through a trigger, and wallet_balances.balance has CHECK (balance >= 0).
CREATE TABLE wallet_balances (
  company_id integer PRIMARY KEY REFERENCES companies(id),
  balance numeric(18,2) NOT NULL DEFAULT 0 CHECK (balance >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO wallet_balances (company_id, balance) SELECT company_id, SUM(amount) FROM wallet_entries GROUP BY company_id;

ALTER TABLE wallet_entries ADD COLUMN balance_after numeric(18,2);
ALTER TABLE wallet_entries ADD COLUMN reference text;
ALTER TABLE wallet_entries ADD COLUMN description text;
-- Entries written before this migration get their running balance once (the ledger is otherwise append-only).
ALTER TABLE wallet_entries DISABLE TRIGGER wallet_entries_no_update_delete;
UPDATE wallet_entries e SET balance_after = s.running FROM (SELECT id, SUM(amount) OVER (PARTITION BY company_id ORDER BY id) AS running FROM wallet_entries) s WHERE s.id = e.id;
ALTER TABLE wallet_entries ENABLE TRIGGER wallet_entries_no_update_delete;
ALTER TABLE wallet_entries DROP CONSTRAINT wallet_entries_kind_check;
ALTER TABLE wallet_entries ADD CONSTRAINT wallet_entries_kind_check CHECK (kind IN ('top_up', 'payroll_debit', 'payroll_refund'));
-- One debit per run and funding attempt, one refund per failed transfer: second lines of defence
-- behind the conditional status changes that decide them.
CREATE UNIQUE INDEX wallet_entries_payroll_debit_key ON wallet_entries (reference) WHERE kind = 'payroll_debit';
CREATE UNIQUE INDEX wallet_entries_payroll_refund_key ON wallet_entries (reference) WHERE kind = 'payroll_refund';

-- Makes sure the company has a balance row, row-locks it (concurrent entries of one company queue
-- here), applies the amount, and records the resulting balance on the entry. A debit the balance cannot cover fails
-- the CHECK, so the entry (and its transaction) is refused.
CREATE FUNCTION wallet_entries_apply_balance() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO wallet_balances (company_id, balance) VALUES (NEW.company_id, 0) ON CONFLICT (company_id) DO NOTHING; UPDATE wallet_balances SET balance = balance + NEW.amount, updated_at = now() WHERE company_id = NEW.company_id RETURNING balance INTO NEW.balance_after; RETURN NEW; END $$;
CREATE TRIGGER wallet_entries_balance BEFORE INSERT ON wallet_entries FOR EACH ROW EXECUTE FUNCTION wallet_entries_apply_balance();
