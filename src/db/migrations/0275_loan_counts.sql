-- GET /api/loans (and the console's Loans page) answers the company's total of loans. Counting them on
-- every unfiltered page was two thirds of what the page cost PostgreSQL at 2,000 loans (0.14-0.15 of
-- 0.22-0.23 ms above a bare round trip, docs/benchmarks.md, "Loans counted once") and grows with the
-- company. loan_counts keeps that number instead, moved by statement-level triggers in the same
-- statement (hence the same transaction) as every insert or delete of loans, whoever writes it, as
-- user_counts does for users (0140, 0182): up to 16 rows a company (`slot`, the writer's database
-- session modulo 16), so concurrent writers of one company rarely wait for each other; the company's
-- total is the sum of its rows, read in the statement's snapshot. A loan never changes company (the
-- update trigger refuses it), so updates do not move the counter. No foreign key to companies, as for
-- user_counts: a cascade deleting a company's loans would otherwise write a row for it.
CREATE TABLE loan_counts (
  company_id integer NOT NULL,
  slot smallint NOT NULL,
  loans integer NOT NULL DEFAULT 0,
  PRIMARY KEY (company_id, slot)
);
INSERT INTO loan_counts (company_id, slot, loans) SELECT company_id, 0, count(*) FROM loans GROUP BY company_id;

CREATE FUNCTION loan_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO loan_counts AS c (company_id, slot, loans) SELECT company_id, pg_backend_pid() % 16, count(*) FROM loan_counts_new GROUP BY company_id ORDER BY company_id ON CONFLICT (company_id, slot) DO UPDATE SET loans = c.loans + EXCLUDED.loans; RETURN NULL; END $$;
-- A delete takes its loans off the company's lowest slot (a row exists: they were counted when inserted).
CREATE FUNCTION loan_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE loan_counts c SET loans = c.loans - d.gone FROM (SELECT company_id, count(*) AS gone FROM loan_counts_old GROUP BY company_id) d WHERE c.company_id = d.company_id AND c.slot = (SELECT min(m.slot) FROM loan_counts m WHERE m.company_id = d.company_id); RETURN NULL; END $$;
CREATE FUNCTION loans_keep_company() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'a loan never changes company (loan_counts)'; END $$;
CREATE TRIGGER loan_counts_insert AFTER INSERT ON loans REFERENCING NEW TABLE AS loan_counts_new FOR EACH STATEMENT EXECUTE FUNCTION loan_counts_after_insert();
CREATE TRIGGER loan_counts_delete AFTER DELETE ON loans REFERENCING OLD TABLE AS loan_counts_old FOR EACH STATEMENT EXECUTE FUNCTION loan_counts_after_delete();
CREATE TRIGGER loans_keep_company BEFORE UPDATE OF company_id ON loans FOR EACH ROW WHEN (OLD.company_id IS DISTINCT FROM NEW.company_id) EXECUTE FUNCTION loans_keep_company();
