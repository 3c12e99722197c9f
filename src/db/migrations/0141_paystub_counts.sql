-- P1 without filters answers the company's number of paystubs (`total`). Paystubs only accumulate
-- (a 10,000-employee company adds 120,000 a year), so counting them on every request grows without
-- bound, like GET /api/users' total did (0140_user_counts.sql, the same design): paystub_counts
-- keeps the number, moved by statement-level triggers in the same statement as every insert and
-- delete of paystubs (P2, payroll runs, anything else); concurrent writers of one company queue on
-- its counter row until they commit. A paystub never changes company and is never soft-deleted
-- (cancelling is a status), so updates do not move it and have no trigger (the settle step updates
-- thousands of paystubs at a time). P1 with a filter still counts (an index serves each filter).
CREATE TABLE paystub_counts (
  company_id integer PRIMARY KEY,
  paystubs integer NOT NULL DEFAULT 0
);
INSERT INTO paystub_counts (company_id, paystubs) SELECT company_id, count(*) FROM paystubs GROUP BY company_id;

CREATE FUNCTION paystub_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO paystub_counts AS c (company_id, paystubs) SELECT company_id, count(*) FROM paystub_counts_new GROUP BY company_id ORDER BY company_id ON CONFLICT (company_id) DO UPDATE SET paystubs = c.paystubs + EXCLUDED.paystubs; RETURN NULL; END $$;
CREATE FUNCTION paystub_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE paystub_counts c SET paystubs = c.paystubs - d.gone FROM (SELECT company_id, count(*) AS gone FROM paystub_counts_old GROUP BY company_id) d WHERE c.company_id = d.company_id; RETURN NULL; END $$;
CREATE TRIGGER paystub_counts_insert AFTER INSERT ON paystubs REFERENCING NEW TABLE AS paystub_counts_new FOR EACH STATEMENT EXECUTE FUNCTION paystub_counts_after_insert();
CREATE TRIGGER paystub_counts_delete AFTER DELETE ON paystubs REFERENCING OLD TABLE AS paystub_counts_old FOR EACH STATEMENT EXECUTE FUNCTION paystub_counts_after_delete();
