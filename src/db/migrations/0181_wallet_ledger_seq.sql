-- The ledger's order is the order in which entries moved the balance. The id (a sequence drawn
-- when the INSERT starts, before the trigger waits for the balance row's lock) is not that order:
-- a refund or top-up that drew its id while a payroll funding held the lock moves the balance
-- after the funding's debit, which has a higher id, so balance_after did not chain in id order.
-- wallet_balances.ledger_seq counts a company's entries; the trigger takes the next number in the
-- same UPDATE that moves the balance (under the row lock, rolled back with the entry), stores it
-- on the entry, and GET /api/wallet/transactions lists by it (docs/payroll-runs.md, "The ledger").
ALTER TABLE wallet_balances ADD COLUMN ledger_seq bigint NOT NULL DEFAULT 0;
ALTER TABLE wallet_entries ADD COLUMN ledger_seq bigint;
-- Entries written before this migration keep the order they were listed in (id), numbered 1, 2, ... per company.
ALTER TABLE wallet_entries DISABLE TRIGGER wallet_entries_no_update_delete;
UPDATE wallet_entries e SET ledger_seq = s.seq FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY company_id ORDER BY id) AS seq FROM wallet_entries) s WHERE s.id = e.id;
ALTER TABLE wallet_entries ENABLE TRIGGER wallet_entries_no_update_delete;
UPDATE wallet_balances b SET ledger_seq = s.last FROM (SELECT company_id, MAX(ledger_seq) AS last FROM wallet_entries GROUP BY company_id) s WHERE s.company_id = b.company_id;
ALTER TABLE wallet_entries ALTER COLUMN ledger_seq SET NOT NULL;
-- Serves the listing (newest first) and the count; replaces the (company_id, id) index.
CREATE UNIQUE INDEX wallet_entries_ledger_seq_key ON wallet_entries (company_id, ledger_seq);
DROP INDEX wallet_entries_company_idx;
CREATE OR REPLACE FUNCTION wallet_entries_apply_balance() RETURNS trigger LANGUAGE plpgsql AS $$ DECLARE sandbox_part numeric(18,2) := 0; BEGIN IF NEW.transaction_reference IS NOT NULL AND EXISTS (SELECT 1 FROM wallet_transactions WHERE reference = NEW.transaction_reference AND provider = 'sandbox') THEN sandbox_part := NEW.amount; END IF; INSERT INTO wallet_balances (company_id, balance) VALUES (NEW.company_id, 0) ON CONFLICT (company_id) DO NOTHING; UPDATE wallet_balances SET balance = balance + NEW.amount, sandbox = sandbox + sandbox_part, ledger_seq = ledger_seq + 1, updated_at = now() WHERE company_id = NEW.company_id RETURNING balance, ledger_seq INTO NEW.balance_after, NEW.ledger_seq; RETURN NEW; END $$;
