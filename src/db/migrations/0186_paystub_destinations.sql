-- What is approved is what is paid (docs/payroll-runs.md, "Payment destinations"). Approval pins
-- each paystub's payment destination (bank code, bank name, account number, account name) and a
-- snapshot of the employee as the payslip shows them; funding sends to the pinned destination and
-- never reads the user's current bank details.
ALTER TABLE paystubs ADD COLUMN destination_bank_code text;
ALTER TABLE paystubs ADD COLUMN destination_bank_name text;
ALTER TABLE paystubs ADD COLUMN destination_account_number text;
ALTER TABLE paystubs ADD COLUMN destination_account_name text;
ALTER TABLE paystubs ADD COLUMN destination_pinned_at timestamptz;
ALTER TABLE paystubs ADD COLUMN employee_snapshot jsonb;
ALTER TABLE paystubs ADD COLUMN hold_reason text;
-- held: the employee's bank details changed after approval; not funded until approved again.
ALTER TABLE paystubs DROP CONSTRAINT paystubs_status_check;
ALTER TABLE paystubs ADD CONSTRAINT paystubs_status_check CHECK (status IN ('unpaid', 'held', 'processing', 'paid', 'failed', 'cancelled'));

-- Paid and processing paystubs: the destination of their latest transfer (what was, or is being,
-- paid), the best evidence there is.
UPDATE paystubs p SET destination_bank_code = t.bank_code, destination_bank_name = t.bank_name, destination_account_number = t.account_number, destination_account_name = t.account_name, destination_pinned_at = t.created_at
  FROM (SELECT DISTINCT ON (paystub_id) paystub_id, bank_code, bank_name, account_number, account_name, created_at FROM payroll_transfers ORDER BY paystub_id, created_at DESC, reference DESC) t
 WHERE t.paystub_id = p.id AND p.status IN ('paid', 'processing');
-- Approved paystubs not paid (unpaid in an approved run, failed and waiting for a retry): the
-- employee's details at migration time, as if the run had been approved now, so that a retry
-- after a bank fix made before this migration needs no new approval. Paystubs of draft runs are pinned when their run is approved.
UPDATE paystubs p SET destination_bank_code = u.bank_code, destination_bank_name = NULLIF(btrim(u.bank_name), ''), destination_account_number = NULLIF(btrim(u.account_number), ''), destination_account_name = COALESCE(NULLIF(btrim(u.account_name), ''), btrim(u.first_name || ' ' || u.last_name)), destination_pinned_at = now()
  FROM users u, payroll_runs r
 WHERE u.id = p.user_id AND r.id = p.transaction_id AND r.company_id = p.company_id AND p.destination_pinned_at IS NULL
   AND p.status IN ('unpaid', 'failed') AND r.status IN ('approved', 'processing', 'partially_paid', 'failed');

-- The hold (docs/payroll-runs.md, "Held paystubs"): whatever writes a user's bank code or account
-- number (U4, U9, the console, re-invitation, anything later), in the same statement, every
-- approved paystub of that user not yet handed to the provider (unpaid, pinned) whose destination
-- is no longer the user's becomes held. A conditional UPDATE like pay's claim (status = 'unpaid'):
-- a paystub is either claimed by pay (processing, sent to its pinned destination) or held, never both.
CREATE FUNCTION paystubs_hold_on_bank_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE paystubs SET status = 'held', hold_reason = 'Bank account changed after approval.', updated_at = now() WHERE user_id = NEW.id AND status = 'unpaid' AND destination_pinned_at IS NOT NULL AND (destination_bank_code IS DISTINCT FROM NEW.bank_code OR destination_account_number IS DISTINCT FROM NULLIF(btrim(NEW.account_number), '')); RETURN NULL; END $$;
CREATE TRIGGER users_bank_change_holds_paystubs AFTER UPDATE OF bank_code, account_number ON users FOR EACH ROW WHEN (OLD.bank_code IS DISTINCT FROM NEW.bank_code OR OLD.account_number IS DISTINCT FROM NEW.account_number) EXECUTE FUNCTION paystubs_hold_on_bank_change();
