-- P1 filtered by one run's transaction_id (the console's run view) answered its total with a count
-- of the run's paystubs on every request: 10,000-30,000 index entries per page of 20, the list's
-- main cost (docs/benchmarks.md, "Every list against the ceiling"). paystub_run_counts keeps each
-- run's number, moved by statement-level triggers in the same statement as every insert and delete of
-- paystubs, as paystub_counts (0141) keeps the company's. A paystub never changes run (transaction_id
-- is written once, at insert): the update trigger below refuses a change, so no update can make
-- the counter wrong. A run's paystubs are inserted by one statement per batch, so writers of one
-- run meet on its row only within their own transaction.
CREATE TABLE paystub_run_counts (
  company_id integer NOT NULL,
  transaction_id text NOT NULL,
  paystubs integer NOT NULL DEFAULT 0,
  PRIMARY KEY (company_id, transaction_id)
);
INSERT INTO paystub_run_counts (company_id, transaction_id, paystubs) SELECT company_id, transaction_id, count(*) FROM paystubs GROUP BY company_id, transaction_id;

CREATE FUNCTION paystub_run_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO paystub_run_counts AS c (company_id, transaction_id, paystubs) SELECT company_id, transaction_id, count(*) FROM paystub_run_counts_new GROUP BY company_id, transaction_id ORDER BY company_id, transaction_id ON CONFLICT (company_id, transaction_id) DO UPDATE SET paystubs = c.paystubs + EXCLUDED.paystubs; RETURN NULL; END $$;
CREATE FUNCTION paystub_run_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE paystub_run_counts c SET paystubs = c.paystubs - d.gone FROM (SELECT company_id, transaction_id, count(*) AS gone FROM paystub_run_counts_old GROUP BY company_id, transaction_id) d WHERE c.company_id = d.company_id AND c.transaction_id = d.transaction_id; RETURN NULL; END $$;
CREATE FUNCTION paystubs_keep_run() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'a paystub never changes run or company (paystub_run_counts)'; END $$;
CREATE TRIGGER paystub_run_counts_insert AFTER INSERT ON paystubs REFERENCING NEW TABLE AS paystub_run_counts_new FOR EACH STATEMENT EXECUTE FUNCTION paystub_run_counts_after_insert();
CREATE TRIGGER paystub_run_counts_delete AFTER DELETE ON paystubs REFERENCING OLD TABLE AS paystub_run_counts_old FOR EACH STATEMENT EXECUTE FUNCTION paystub_run_counts_after_delete();
CREATE TRIGGER paystubs_keep_run BEFORE UPDATE OF transaction_id, company_id ON paystubs FOR EACH ROW WHEN (OLD.transaction_id IS DISTINCT FROM NEW.transaction_id OR OLD.company_id IS DISTINCT FROM NEW.company_id) EXECUTE FUNCTION paystubs_keep_run();
