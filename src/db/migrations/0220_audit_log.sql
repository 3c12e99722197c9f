-- The audit log (docs/audit.md): every change to a company's data, written by the change's own
-- transaction, append-only, chained per company. The chain is built here, in a BEFORE INSERT
-- trigger, under the row lock of the company's audit_heads row: the application cannot forget to
-- chain, a batch INSERT chains its rows in order, and the lock is held from the event's INSERT
-- (written last in each transaction) to the commit.
CREATE TABLE audit_heads (
  company_id integer PRIMARY KEY REFERENCES companies(id),
  seq bigint NOT NULL DEFAULT 0,
  hash text NOT NULL DEFAULT '0000000000000000000000000000000000000000000000000000000000000000'
);
-- action is COLLATE "C" so that the prefix filter (`action LIKE 'user.%'`) is an index range scan
-- whatever the database's collation.
CREATE TABLE audit_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id),
  seq bigint NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  actor_type text NOT NULL CHECK (actor_type IN ('token', 'console_user', 'operator', 'system', 'employee')),
  actor_id text NOT NULL,
  actor_email text,
  action text COLLATE "C" NOT NULL,
  target_type text NOT NULL,
  target_id text NOT NULL,
  changes jsonb,
  request_id text,
  ip text,
  user_agent text,
  prev_hash text NOT NULL,
  hash text NOT NULL
);
CREATE UNIQUE INDEX audit_events_company_seq_key ON audit_events (company_id, seq);
CREATE INDEX audit_events_action_idx ON audit_events (company_id, action, seq);
CREATE INDEX audit_events_target_idx ON audit_events (company_id, target_type, target_id, seq);
CREATE INDEX audit_events_actor_idx ON audit_events (company_id, actor_type, actor_id, seq);
CREATE INDEX audit_events_occurred_idx ON audit_events (company_id, occurred_at);
-- The canonical JSON an event's hash covers: PostgreSQL's jsonb text form (keys ordered, one
-- spelling per value) of every field but hash and prev_hash; prev_hash is the prefix of the hashed
-- text instead. The verifier recomputes it with this same function.
CREATE FUNCTION audit_event_canonical(e audit_events) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT jsonb_build_object('seq', e.seq, 'company_id', e.company_id, 'occurred_at', to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), 'actor', jsonb_build_object('type', e.actor_type, 'id', e.actor_id, 'email', e.actor_email), 'action', e.action, 'target', jsonb_build_object('type', e.target_type, 'id', e.target_id), 'changes', e.changes, 'request_id', e.request_id, 'ip', e.ip, 'user_agent', e.user_agent)::text $$;
CREATE FUNCTION audit_event_hash(prev_hash text, canonical text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT encode(sha256(convert_to(prev_hash || canonical, 'UTF8')), 'hex') $$;
-- Each row takes the head from a transaction-local setting once its transaction holds the head's
-- lock (set by the first row), so a batch of N events locks and reads the head once and moves it
-- once (the statement trigger below), instead of N updates of one row (quadratic in N). The
-- setting is rolled back with a savepoint or the transaction, like the rows.
CREATE FUNCTION audit_events_chain() RETURNS trigger LANGUAGE plpgsql AS $$ DECLARE head_seq bigint; head_hash text; running text := current_setting('audit.head_' || NEW.company_id, true); BEGIN IF running IS NULL OR running = '' THEN INSERT INTO audit_heads (company_id) VALUES (NEW.company_id) ON CONFLICT (company_id) DO NOTHING; SELECT seq, hash INTO head_seq, head_hash FROM audit_heads WHERE company_id = NEW.company_id FOR UPDATE; ELSE head_seq := split_part(running, ':', 1)::bigint; head_hash := split_part(running, ':', 2); END IF; NEW.seq := head_seq + 1; NEW.prev_hash := head_hash; NEW.occurred_at := clock_timestamp(); NEW.hash := audit_event_hash(NEW.prev_hash, audit_event_canonical(NEW)); PERFORM set_config('audit.head_' || NEW.company_id, NEW.seq || ':' || NEW.hash, true); RETURN NEW; END $$;
CREATE TRIGGER audit_events_chain BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION audit_events_chain();
CREATE FUNCTION audit_heads_advance() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE audit_heads h SET seq = n.seq, hash = n.hash FROM (SELECT DISTINCT ON (company_id) company_id, seq, hash FROM inserted ORDER BY company_id, seq DESC) n WHERE h.company_id = n.company_id; RETURN NULL; END $$;
CREATE TRIGGER audit_heads_advance AFTER INSERT ON audit_events REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION audit_heads_advance();
CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit_events is append-only'; END $$;
CREATE TRIGGER audit_events_no_update_delete BEFORE UPDATE OR DELETE ON audit_events FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();
