-- The tax year's rules (docs/payroll.md, "The tax year"; docs/compliance.md, "Remittances").

-- Pension exemption (Pension Reform Act 2014, the exemptions from the scheme): an exempt employee
-- has no employee or employer pension. The reason is required while the exemption holds, at most
-- 200 characters (the API checks both first; the constraint is the last word).
ALTER TABLE users ADD COLUMN pension_exempt boolean NOT NULL DEFAULT false;
ALTER TABLE users ADD COLUMN pension_exempt_reason text;
ALTER TABLE users ADD CONSTRAINT users_pension_exempt_reason_check CHECK ((NOT pension_exempt OR pension_exempt_reason IS NOT NULL) AND char_length(pension_exempt_reason) <= 200);

-- Each user's state of residence over time: the state on 1 January of a tax year decides that
-- year's PAYE authority (PITA First Schedule para 3). One row per change (null = the state was
-- cleared), effective from the calendar date in Nigeria (WAT, UTC+1) of the change; several changes
-- on one day: the last (highest id) is that day's state. No foreign key: the rows are written by the
-- triggers below from the users rows themselves (a per-row FK check would cost an import of
-- 10,000 employees 10,000 lookups). The index serves the run's one read (the run's users).
CREATE TABLE user_state_history (
  id bigserial PRIMARY KEY,
  company_id integer NOT NULL,
  user_id integer NOT NULL,
  state text,
  effective_from date NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX user_state_history_user_idx ON user_state_history (user_id, effective_from, id);

-- The history before this migration, from the best evidence there is: each paystub's snapshot of
-- the state (0088) where it differs from the one before (the day the paystub was computed), the
-- first one effective from the day the user was created, then the user's current state where it
-- differs from the last snapshot (effective today) or where there is no snapshot at all (effective
-- from the day the user was created).
INSERT INTO user_state_history (company_id, user_id, state, effective_from)
SELECT company_id, user_id, state, day FROM (
  SELECT p.company_id, p.user_id, p.state_of_residence AS state, ((p.created_at AT TIME ZONE 'UTC') + interval '1 hour')::date AS day,
         lag(p.state_of_residence) OVER w AS previous, row_number() OVER w AS n, p.created_at, p.id
    FROM paystubs p WHERE p.state_of_residence IS NOT NULL
  WINDOW w AS (PARTITION BY p.user_id ORDER BY p.created_at, p.id)
) s WHERE n = 1 OR state IS DISTINCT FROM previous
ORDER BY user_id, created_at, id;
UPDATE user_state_history h SET effective_from = LEAST(h.effective_from, ((u.created_at AT TIME ZONE 'UTC') + interval '1 hour')::date)
  FROM users u
 WHERE u.id = h.user_id AND h.id = (SELECT min(f.id) FROM user_state_history f WHERE f.user_id = h.user_id);
INSERT INTO user_state_history (company_id, user_id, state, effective_from)
SELECT u.company_id, u.id, u.state_of_residence,
       CASE WHEN l.user_id IS NULL THEN ((u.created_at AT TIME ZONE 'UTC') + interval '1 hour')::date ELSE ((now() AT TIME ZONE 'UTC') + interval '1 hour')::date END
  FROM users u
  LEFT JOIN LATERAL (SELECT h.user_id, h.state FROM user_state_history h WHERE h.user_id = u.id ORDER BY h.effective_from DESC, h.id DESC LIMIT 1) l ON true
 WHERE (l.user_id IS NULL AND u.state_of_residence IS NOT NULL) OR (l.user_id IS NOT NULL AND l.state IS DISTINCT FROM u.state_of_residence)
 ORDER BY u.id;

-- Whatever writes users.state_of_residence (U3/U4, U8/U9, the console, SQL), in the same statement
-- (so in its transaction), records the change: a trigger rather than a call in each writer, so that
-- no path can forget it (as users_bank_change_holds_paystubs in 0186). Statement-level with
-- transition tables, like the user counts (0140): one INSERT per statement whatever its size.
CREATE FUNCTION user_state_history_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO user_state_history (company_id, user_id, state, effective_from) SELECT n.company_id, n.id, n.state_of_residence, ((now() AT TIME ZONE 'UTC') + interval '1 hour')::date FROM user_state_new n WHERE n.state_of_residence IS NOT NULL ORDER BY n.id; RETURN NULL; END $$;
CREATE FUNCTION user_state_history_after_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO user_state_history (company_id, user_id, state, effective_from) SELECT n.company_id, n.id, n.state_of_residence, ((now() AT TIME ZONE 'UTC') + interval '1 hour')::date FROM user_state_new n JOIN user_state_old o ON o.id = n.id WHERE n.state_of_residence IS DISTINCT FROM o.state_of_residence ORDER BY n.id; RETURN NULL; END $$;
CREATE TRIGGER user_state_history_insert AFTER INSERT ON users REFERENCING NEW TABLE AS user_state_new FOR EACH STATEMENT EXECUTE FUNCTION user_state_history_after_insert();
CREATE TRIGGER user_state_history_update AFTER UPDATE ON users REFERENCING OLD TABLE AS user_state_old NEW TABLE AS user_state_new FOR EACH STATEMENT EXECUTE FUNCTION user_state_history_after_update();

-- The PAYE authority a paystub used (the state of residence on 1 January of its period's year).
-- Paystubs before this migration: the state they were filed under, their snapshot (0088), else the
-- user's current state (paystubs older than the snapshot). Remittances read
-- COALESCE(paye_state, state_of_residence), so a paystub written without it still files somewhere.
ALTER TABLE paystubs ADD COLUMN paye_state text;
UPDATE paystubs p SET paye_state = COALESCE(p.state_of_residence, u.state_of_residence)
  FROM users u
 WHERE u.id = p.user_id AND COALESCE(p.state_of_residence, u.state_of_residence) IS NOT NULL;

-- Remittance month of runs without a payment_date (P2): their paystubs fall in the month of their
-- own paid_at (docs/compliance.md, "What a month holds"); this serves that half of the month's read.
CREATE INDEX paystubs_company_paid_at_idx ON paystubs (company_id, paid_at) WHERE paid_at IS NOT NULL;
