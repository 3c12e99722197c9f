-- The wallet balance is now read from wallet_balances (one row) instead of summing the ledger, so
-- the row also carries the part of the balance that came from sandbox top-ups (test money, shown
-- as `sandbox_balance`): the same figure the sum gave, the entries whose top-up transaction was a
-- sandbox one, kept by the same trigger with every entry.
ALTER TABLE wallet_balances ADD COLUMN sandbox numeric(18,2) NOT NULL DEFAULT 0;
UPDATE wallet_balances b SET sandbox = s.total FROM (SELECT e.company_id, SUM(e.amount) AS total FROM wallet_entries e JOIN wallet_transactions t ON t.reference = e.transaction_reference WHERE t.provider = 'sandbox' GROUP BY e.company_id) s WHERE s.company_id = b.company_id;
CREATE OR REPLACE FUNCTION wallet_entries_apply_balance() RETURNS trigger LANGUAGE plpgsql AS $$ DECLARE sandbox_part numeric(18,2) := 0; BEGIN IF NEW.transaction_reference IS NOT NULL AND EXISTS (SELECT 1 FROM wallet_transactions WHERE reference = NEW.transaction_reference AND provider = 'sandbox') THEN sandbox_part := NEW.amount; END IF; INSERT INTO wallet_balances (company_id, balance) VALUES (NEW.company_id, 0) ON CONFLICT (company_id) DO NOTHING; UPDATE wallet_balances SET balance = balance + NEW.amount, sandbox = sandbox + sandbox_part, updated_at = now() WHERE company_id = NEW.company_id RETURNING balance INTO NEW.balance_after; RETURN NEW; END $$;
