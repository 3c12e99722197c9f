-- GET /api/users answers `totalResults`, the company's live (not soft-deleted) users. Counting them
-- on every request costs PostgreSQL ~2.2 ms at 10,000 users (an index-only scan still visits every
-- entry) and grows with the company (~200 ms at 1,000,000). user_counts keeps that number instead,
-- moved by statement-level triggers in the same statement (hence the same transaction) as every
-- insert, soft delete, restore or hard delete of users, whoever writes it (U3, bulk imports, the
-- console, lifecycle jobs, a hand-written UPDATE). The upsert row-locks the company's counter until
-- commit, so concurrent writers of one company queue there and every delta lands exactly once.
-- Statement-level with transition tables: a 10,000-row import moves the counter once, not 10,000 times.
-- No CHECK (live >= 0): PostgreSQL checks an upsert's proposed row before it finds the conflict, so a
-- negative delta (a soft delete) could not go through the upsert. No foreign key to companies: a company's users deleted by a cascade would otherwise have their
-- trigger write a counter row for a company being deleted.
CREATE TABLE user_counts (
  company_id integer PRIMARY KEY,
  live integer NOT NULL DEFAULT 0
);
INSERT INTO user_counts (company_id, live) SELECT company_id, count(*) FROM users WHERE deleted_at IS NULL GROUP BY company_id;

CREATE FUNCTION user_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO user_counts AS c (company_id, live) SELECT company_id, count(*) FROM user_counts_new WHERE deleted_at IS NULL GROUP BY company_id ORDER BY company_id ON CONFLICT (company_id) DO UPDATE SET live = c.live + EXCLUDED.live; RETURN NULL; END $$;
CREATE FUNCTION user_counts_after_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO user_counts AS c (company_id, live) SELECT company_id, sum(delta) FROM (SELECT company_id, 1 AS delta FROM user_counts_new WHERE deleted_at IS NULL UNION ALL SELECT company_id, -1 FROM user_counts_old WHERE deleted_at IS NULL) d GROUP BY company_id HAVING sum(delta) <> 0 ORDER BY company_id ON CONFLICT (company_id) DO UPDATE SET live = c.live + EXCLUDED.live; RETURN NULL; END $$;
CREATE FUNCTION user_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE user_counts c SET live = c.live - d.gone FROM (SELECT company_id, count(*) AS gone FROM user_counts_old WHERE deleted_at IS NULL GROUP BY company_id) d WHERE c.company_id = d.company_id; RETURN NULL; END $$;
CREATE TRIGGER user_counts_insert AFTER INSERT ON users REFERENCING NEW TABLE AS user_counts_new FOR EACH STATEMENT EXECUTE FUNCTION user_counts_after_insert();
CREATE TRIGGER user_counts_update AFTER UPDATE ON users REFERENCING OLD TABLE AS user_counts_old NEW TABLE AS user_counts_new FOR EACH STATEMENT EXECUTE FUNCTION user_counts_after_update();
CREATE TRIGGER user_counts_delete AFTER DELETE ON users REFERENCING OLD TABLE AS user_counts_old FOR EACH STATEMENT EXECUTE FUNCTION user_counts_after_delete();
