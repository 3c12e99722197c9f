-- P1's page as JSON text (src/modules/paystubs/paystubs.listed-text.repo.ts) wrote every listed
-- paystub's text, items, records and contribution included, on every request: about two thirds of
-- PostgreSQL's CPU per page (docs/benchmarks.md, "P1's kept texts"). The text of a paystub changes
-- only when the paystub, its items or its records change, so it is kept here, written by the first
-- read after a change, and used while it is still the paystub's.
--
-- Whether a kept text is still the paystub's is decided when it is read, never by deleting it: every
-- change to what the text is made of moves the paystub's listed_stamp in the transaction that makes
-- the change, and a kept text is used only while its stamp is the paystub's (and its format_key the
-- code's). A text written from a snapshot older than a change carries the stamp from before the
-- change, so it can never be used, however its write races the change; nothing waits on anything.
--
-- What moves the stamp:
-- - every update of a paystub (the BEFORE trigger below, whatever the columns);
-- - every insert, update and delete of its items (paystub_items) and of its contribution records
--   (custom_contribution_records, whose contribution_id is the paystub's id), by statement-level
--   triggers that touch the paystubs concerned. A paystub inserted or already updated by the same
--   transaction is not touched: no other transaction sees it before this one commits, and then it
--   sees the whole of it with one stamp (xmin is the transaction's own id only for those rows; in a
--   subtransaction it is not, and the touch is merely redundant).
-- A paystub with a loan's repayment among its items is never kept: its balance after the
-- repayment depends on the loan's other paystubs (the code does not write such texts).
ALTER TABLE paystubs ADD COLUMN listed_stamp bigint NOT NULL DEFAULT 0;

CREATE TABLE paystub_listed_texts (
  paystub_id integer PRIMARY KEY REFERENCES paystubs (id) ON DELETE CASCADE,
  company_id integer NOT NULL,
  stamp bigint NOT NULL,
  format_key integer NOT NULL,
  head text NOT NULL,
  contribution text NOT NULL
);

CREATE FUNCTION paystubs_listed_stamp_move() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.listed_stamp := OLD.listed_stamp + 1; RETURN NEW; END $$;
CREATE TRIGGER paystubs_listed_stamp_move BEFORE UPDATE ON paystubs FOR EACH ROW EXECUTE FUNCTION paystubs_listed_stamp_move();

CREATE FUNCTION paystub_items_touch_paystubs() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF TG_OP <> 'DELETE' THEN UPDATE paystubs p SET listed_stamp = p.listed_stamp WHERE p.id IN (SELECT paystub_id FROM listed_new) AND p.xmin <> pg_current_xact_id()::xid; END IF; IF TG_OP <> 'INSERT' THEN UPDATE paystubs p SET listed_stamp = p.listed_stamp WHERE p.id IN (SELECT paystub_id FROM listed_old) AND p.xmin <> pg_current_xact_id()::xid; END IF; RETURN NULL; END $$;
CREATE TRIGGER paystub_items_touch_insert AFTER INSERT ON paystub_items REFERENCING NEW TABLE AS listed_new FOR EACH STATEMENT EXECUTE FUNCTION paystub_items_touch_paystubs();
CREATE TRIGGER paystub_items_touch_update AFTER UPDATE ON paystub_items REFERENCING OLD TABLE AS listed_old NEW TABLE AS listed_new FOR EACH STATEMENT EXECUTE FUNCTION paystub_items_touch_paystubs();
CREATE TRIGGER paystub_items_touch_delete AFTER DELETE ON paystub_items REFERENCING OLD TABLE AS listed_old FOR EACH STATEMENT EXECUTE FUNCTION paystub_items_touch_paystubs();

CREATE FUNCTION contribution_records_touch_paystubs() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF TG_OP <> 'DELETE' THEN UPDATE paystubs p SET listed_stamp = p.listed_stamp WHERE p.id IN (SELECT contribution_id FROM listed_new) AND p.xmin <> pg_current_xact_id()::xid; END IF; IF TG_OP <> 'INSERT' THEN UPDATE paystubs p SET listed_stamp = p.listed_stamp WHERE p.id IN (SELECT contribution_id FROM listed_old) AND p.xmin <> pg_current_xact_id()::xid; END IF; RETURN NULL; END $$;
CREATE TRIGGER contribution_records_touch_insert AFTER INSERT ON custom_contribution_records REFERENCING NEW TABLE AS listed_new FOR EACH STATEMENT EXECUTE FUNCTION contribution_records_touch_paystubs();
CREATE TRIGGER contribution_records_touch_update AFTER UPDATE ON custom_contribution_records REFERENCING OLD TABLE AS listed_old NEW TABLE AS listed_new FOR EACH STATEMENT EXECUTE FUNCTION contribution_records_touch_paystubs();
CREATE TRIGGER contribution_records_touch_delete AFTER DELETE ON custom_contribution_records REFERENCING OLD TABLE AS listed_old FOR EACH STATEMENT EXECUTE FUNCTION contribution_records_touch_paystubs();
