-- user_counts (0140) kept one row per company, and every insert of users upserted it: the row
-- stayed locked until the writer's commit, so one company's creates queued there one after another
-- (docs/users.md, "Employee numbers": with the employee number reserved outside the transaction,
-- this was the one row left that every create of a company waited for). The counter is now split
-- into up to 16 rows per company (`slot`); a writer moves the slot of its own database session
-- (pg_backend_pid() % 16), so concurrent writers of one company rarely meet, and one transaction
-- never locks two slots of a company (no deadlock between writers). The company's count is the sum
-- of its rows: still exact, still read in the statement's snapshot, at most 16 rows by primary key.
ALTER TABLE user_counts ADD COLUMN slot smallint NOT NULL DEFAULT 0;
ALTER TABLE user_counts DROP CONSTRAINT user_counts_pkey;
ALTER TABLE user_counts ADD PRIMARY KEY (company_id, slot);
ALTER TABLE user_counts ALTER COLUMN slot DROP DEFAULT;
CREATE OR REPLACE FUNCTION user_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO user_counts AS c (company_id, slot, live) SELECT company_id, pg_backend_pid() % 16, count(*) FROM user_counts_new WHERE deleted_at IS NULL GROUP BY company_id ORDER BY company_id ON CONFLICT (company_id, slot) DO UPDATE SET live = c.live + EXCLUDED.live; RETURN NULL; END $$;
CREATE OR REPLACE FUNCTION user_counts_after_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO user_counts AS c (company_id, slot, live) SELECT company_id, pg_backend_pid() % 16, sum(delta) FROM (SELECT company_id, 1 AS delta FROM user_counts_new WHERE deleted_at IS NULL UNION ALL SELECT company_id, -1 FROM user_counts_old WHERE deleted_at IS NULL) d GROUP BY company_id HAVING sum(delta) <> 0 ORDER BY company_id ON CONFLICT (company_id, slot) DO UPDATE SET live = c.live + EXCLUDED.live; RETURN NULL; END $$;
-- A hard delete takes its users off the company's lowest slot (a row exists: its users were counted
-- when inserted), without writing a row for a company whose users a cascade is deleting.
CREATE OR REPLACE FUNCTION user_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE user_counts c SET live = c.live - d.gone FROM (SELECT company_id, count(*) AS gone FROM user_counts_old WHERE deleted_at IS NULL GROUP BY company_id) d WHERE c.company_id = d.company_id AND c.slot = (SELECT min(m.slot) FROM user_counts m WHERE m.company_id = d.company_id); RETURN NULL; END $$;
