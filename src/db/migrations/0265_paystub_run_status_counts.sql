-- Every view of a run (the API's run object, the console's run page, the runs list, the webhook
-- events' run) counted the run's paystubs by status: a scan of the run, 12.8 ms at 10,000 paystubs
-- and 107 ms a view at 100,000 (docs/benchmarks.md, "Growth"). paystub_run_counts (0260) now keeps
-- a number per status beside the run's total, moved by statement-level triggers with transition
-- tables in the same statement as every insert, delete and status change of paystubs, whoever
-- writes it; payrollRunsRepo.counts reads them by primary key.
--
-- Who changes the statuses of one run's paystubs, and what each holds first (docs/payroll-runs.md):
-- creation inserts them under the company's run lock, into a run id nobody else knows yet; approval
-- (pinning, held → unpaid), release, pay and retry (claims, unbankable → failed), cancel, and
-- settlement (the send and settle jobs, Paystack's webhooks, reversals) each lock the run's row
-- first, so they already take turns on the run. (Since then a settlement moves its paystubs before
-- it locks the run's row, side by side with the run's other settlements: docs/payroll-runs.md,
-- "Lock order". The slots below are what lets them: none waits for another's counter.) The hold
-- on a bank change (0186's trigger) does not: any UPDATE of users' bank details (U4, U9's batches, the console, a re-invitation) holds
-- those users' rows, in the order its statement visits them, and may hold paystubs of several runs
-- in one transaction. One counter row per run, locked by each writer until its commit, would make
-- a settlement of a run wait for an import that held one of its paystubs (and the reverse), and
-- could deadlock: a release locks the run, then its users FOR SHARE, then waits for the counter an
-- import holds since it held another employee of the run, while the import goes on to update one
-- of the released users.
--
-- So no writer ever waits on this table. A run's counter is split into slot rows; a statement adds
-- its difference to the first slot of the run that no other transaction holds (FOR UPDATE SKIP
-- LOCKED: its own transaction's are never skipped) or, when every slot is held by others, inserts a
-- slot keyed by its own transaction id (pg_current_xact_id(): no other transaction ever inserts
-- that key, so the insert cannot wait on a conflict either). Writers of one run wait for each other
-- exactly where they did before (the run's row, the paystub rows), and the counter cannot add a
-- deadlock or a queue. A run has as many slots as transactions once wrote its paystubs at the same
-- moment (usually one: the run lock). A slot alone means nothing (a hold may take one below zero);
-- the run's numbers are the sums of its slots, exact in the reader's snapshot like a GROUP BY of
-- its paystubs. Runs are taken in (company_id, transaction_id) order within a statement.
--
-- UPDATE, not UPDATE OF status: PostgreSQL allows no transition tables on a trigger with a column
-- list. An update that leaves every status as it was (a pin of unpaid paystubs) aggregates its rows
-- and moves nothing. A paystub never changes run or company (paystubs_keep_run, 0260), so old and
-- new rows of one statement net out per (company_id, transaction_id, status).
--
-- The table is locked against writers first, so the backfill and the triggers see the same rows.
LOCK TABLE paystubs IN SHARE ROW EXCLUSIVE MODE;
ALTER TABLE paystub_run_counts ADD COLUMN slot bigint NOT NULL DEFAULT 0, ADD COLUMN unpaid integer NOT NULL DEFAULT 0,
  ADD COLUMN held integer NOT NULL DEFAULT 0, ADD COLUMN processing integer NOT NULL DEFAULT 0, ADD COLUMN paid integer NOT NULL DEFAULT 0,
  ADD COLUMN failed integer NOT NULL DEFAULT 0, ADD COLUMN cancelled integer NOT NULL DEFAULT 0;
ALTER TABLE paystub_run_counts DROP CONSTRAINT paystub_run_counts_pkey;
ALTER TABLE paystub_run_counts ADD PRIMARY KEY (company_id, transaction_id, slot);
ALTER TABLE paystub_run_counts ALTER COLUMN slot DROP DEFAULT;
DELETE FROM paystub_run_counts;
INSERT INTO paystub_run_counts (company_id, transaction_id, slot, paystubs, unpaid, held, processing, paid, failed, cancelled)
  SELECT company_id, transaction_id, 0, count(*), count(*) FILTER (WHERE status = 'unpaid'), count(*) FILTER (WHERE status = 'held'),
         count(*) FILTER (WHERE status = 'processing'), count(*) FILTER (WHERE status = 'paid'), count(*) FILTER (WHERE status = 'failed'),
         count(*) FILTER (WHERE status = 'cancelled')
  FROM paystubs GROUP BY company_id, transaction_id;

-- Adds one run's difference to a slot of the run no other transaction holds, or to a new slot of this transaction's own.
CREATE FUNCTION paystub_run_counts_move(c integer, r text, d_paystubs integer, d_unpaid integer, d_held integer, d_processing integer, d_paid integer, d_failed integer, d_cancelled integer) RETURNS void LANGUAGE plpgsql AS $$ DECLARE s bigint; BEGIN SELECT slot INTO s FROM paystub_run_counts WHERE company_id = c AND transaction_id = r ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED; IF FOUND THEN UPDATE paystub_run_counts SET paystubs = paystubs + d_paystubs, unpaid = unpaid + d_unpaid, held = held + d_held, processing = processing + d_processing, paid = paid + d_paid, failed = failed + d_failed, cancelled = cancelled + d_cancelled WHERE company_id = c AND transaction_id = r AND slot = s; ELSE INSERT INTO paystub_run_counts (company_id, transaction_id, slot, paystubs, unpaid, held, processing, paid, failed, cancelled) VALUES (c, r, pg_current_xact_id()::text::bigint, d_paystubs, d_unpaid, d_held, d_processing, d_paid, d_failed, d_cancelled); END IF; END $$;
-- Each trigger: the statement's rows as (company_id, transaction_id, status, ±1), summed per status, one move per run in key order.
CREATE OR REPLACE FUNCTION paystub_run_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$ DECLARE g record; BEGIN FOR g IN SELECT company_id, transaction_id, count(*)::int AS n, (count(*) FILTER (WHERE status = 'unpaid'))::int AS unpaid, (count(*) FILTER (WHERE status = 'held'))::int AS held, (count(*) FILTER (WHERE status = 'processing'))::int AS processing, (count(*) FILTER (WHERE status = 'paid'))::int AS paid, (count(*) FILTER (WHERE status = 'failed'))::int AS failed, (count(*) FILTER (WHERE status = 'cancelled'))::int AS cancelled FROM paystub_run_counts_new GROUP BY company_id, transaction_id ORDER BY company_id, transaction_id LOOP PERFORM paystub_run_counts_move(g.company_id, g.transaction_id, g.n, g.unpaid, g.held, g.processing, g.paid, g.failed, g.cancelled); END LOOP; RETURN NULL; END $$;
CREATE OR REPLACE FUNCTION paystub_run_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$ DECLARE g record; BEGIN FOR g IN SELECT company_id, transaction_id, count(*)::int AS n, (count(*) FILTER (WHERE status = 'unpaid'))::int AS unpaid, (count(*) FILTER (WHERE status = 'held'))::int AS held, (count(*) FILTER (WHERE status = 'processing'))::int AS processing, (count(*) FILTER (WHERE status = 'paid'))::int AS paid, (count(*) FILTER (WHERE status = 'failed'))::int AS failed, (count(*) FILTER (WHERE status = 'cancelled'))::int AS cancelled FROM paystub_run_counts_old GROUP BY company_id, transaction_id ORDER BY company_id, transaction_id LOOP PERFORM paystub_run_counts_move(g.company_id, g.transaction_id, -g.n, -g.unpaid, -g.held, -g.processing, -g.paid, -g.failed, -g.cancelled); END LOOP; RETURN NULL; END $$;
CREATE FUNCTION paystub_run_counts_after_update() RETURNS trigger LANGUAGE plpgsql AS $$ DECLARE g record; BEGIN FOR g IN SELECT company_id, transaction_id, COALESCE(sum(d) FILTER (WHERE status = 'unpaid'), 0)::int AS unpaid, COALESCE(sum(d) FILTER (WHERE status = 'held'), 0)::int AS held, COALESCE(sum(d) FILTER (WHERE status = 'processing'), 0)::int AS processing, COALESCE(sum(d) FILTER (WHERE status = 'paid'), 0)::int AS paid, COALESCE(sum(d) FILTER (WHERE status = 'failed'), 0)::int AS failed, COALESCE(sum(d) FILTER (WHERE status = 'cancelled'), 0)::int AS cancelled FROM (SELECT company_id, transaction_id, status, sum(d) AS d FROM (SELECT company_id, transaction_id, status, 1 AS d FROM paystub_run_counts_new UNION ALL SELECT company_id, transaction_id, status, -1 FROM paystub_run_counts_old) changed GROUP BY company_id, transaction_id, status HAVING sum(d) <> 0) moved GROUP BY company_id, transaction_id ORDER BY company_id, transaction_id LOOP PERFORM paystub_run_counts_move(g.company_id, g.transaction_id, 0, g.unpaid, g.held, g.processing, g.paid, g.failed, g.cancelled); END LOOP; RETURN NULL; END $$;
CREATE TRIGGER paystub_run_counts_update AFTER UPDATE ON paystubs REFERENCING OLD TABLE AS paystub_run_counts_old NEW TABLE AS paystub_run_counts_new FOR EACH STATEMENT EXECUTE FUNCTION paystub_run_counts_after_update();
