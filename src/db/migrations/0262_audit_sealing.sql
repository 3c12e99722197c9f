-- The audit chain is sealed after the commit instead of inside each write (docs/audit.md, "The
-- chain"). 0220 chained each event in a BEFORE INSERT trigger under the row lock of the company's
-- audit_heads row, held to the commit: every write of a company waited for the one before it to
-- commit, and two transactions that wrote their events at different points deadlocked (seen under
-- parallel creates, imports and deletes of one company). Now an event is a plain insert carrying
-- its transaction's id (xid); the sealer (`audit_seal()`, run by the `audit.seal` job and before
-- `payroll audit verify`) chains, in (xid, id) order, every event whose transaction is older than
-- every transaction still running (the snapshot's xmin): no event can appear below that line any
-- more, so the chain never has to be reordered. Seals live in audit_seals, append-only like the
-- events, so that neither table ever takes an UPDATE.
CREATE TABLE audit_seals (
  event_id bigint PRIMARY KEY REFERENCES audit_events(id),
  company_id integer NOT NULL,
  seq bigint NOT NULL,
  prev_hash text NOT NULL,
  hash text NOT NULL
);
INSERT INTO audit_seals (event_id, company_id, seq, prev_hash, hash) SELECT id, company_id, seq, prev_hash, hash FROM audit_events;
CREATE UNIQUE INDEX audit_seals_company_seq_key ON audit_seals (company_id, seq);
DROP TRIGGER audit_events_chain ON audit_events;
DROP TRIGGER audit_heads_advance ON audit_events;
DROP FUNCTION audit_events_chain();
DROP FUNCTION audit_heads_advance();
DROP FUNCTION audit_event_canonical(audit_events);
DROP INDEX audit_events_company_seq_key;
DROP INDEX audit_events_action_idx;
DROP INDEX audit_events_target_idx;
DROP INDEX audit_events_actor_idx;
ALTER TABLE audit_events DROP COLUMN seq, DROP COLUMN prev_hash, DROP COLUMN hash;
-- Events written before this migration are sealed already: xid 0, below the first watermark (1).
ALTER TABLE audit_events ADD COLUMN xid xid8 NOT NULL DEFAULT '0';
ALTER TABLE audit_events ALTER COLUMN xid SET DEFAULT pg_current_xact_id();
ALTER TABLE audit_events ALTER COLUMN occurred_at SET DEFAULT clock_timestamp();
-- Reads page newest first in chain order, (xid, id), within each filter.
CREATE INDEX audit_events_company_chain_idx ON audit_events (company_id, xid, id);
CREATE INDEX audit_events_action_idx ON audit_events (company_id, action, xid, id);
CREATE INDEX audit_events_target_idx ON audit_events (company_id, target_type, target_id, xid, id);
CREATE INDEX audit_events_actor_idx ON audit_events (company_id, actor_type, actor_id, xid, id);
-- The sealer's scan: every event from the watermark up.
CREATE INDEX audit_events_xid_idx ON audit_events (xid);
-- One row: every event with xid below sealed_xid is sealed. Locked by the sealer, so sealers take turns.
CREATE TABLE audit_seal_state (
  id boolean PRIMARY KEY DEFAULT TRUE CHECK (id),
  sealed_xid xid8 NOT NULL
);
INSERT INTO audit_seal_state (id, sealed_xid) VALUES (TRUE, '1');
-- The same canonical JSON as 0220 (so events sealed before this migration still verify), with the
-- seq given rather than read from the row.
CREATE FUNCTION audit_event_canonical(e audit_events, seq bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT jsonb_build_object('seq', seq, 'company_id', e.company_id, 'occurred_at', to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), 'actor', jsonb_build_object('type', e.actor_type, 'id', e.actor_id, 'email', e.actor_email), 'action', e.action, 'target', jsonb_build_object('type', e.target_type, 'id', e.target_id), 'changes', e.changes, 'request_id', e.request_id, 'ip', e.ip, 'user_agent', e.user_agent)::text $$;
-- Seals every event below the horizon, company by company, continuing each company's chain from its
-- audit_heads row; one INSERT of the seals, one upsert of the heads. Returns how many were sealed.
CREATE FUNCTION audit_seal() RETURNS integer LANGUAGE plpgsql AS $$ DECLARE horizon xid8 := pg_snapshot_xmin(pg_current_snapshot()); since xid8; e audit_events; company integer := NULL; head_seq bigint; head_hash text; ids bigint[] := '{}'; companies integer[] := '{}'; seqs bigint[] := '{}'; prevs text[] := '{}'; hashes text[] := '{}'; next_hash text; BEGIN SELECT sealed_xid INTO since FROM audit_seal_state FOR UPDATE; IF horizon <= since THEN RETURN 0; END IF; FOR e IN SELECT * FROM audit_events WHERE xid >= since AND xid < horizon ORDER BY company_id, xid, id LOOP IF company IS DISTINCT FROM e.company_id THEN company := e.company_id; SELECT h.seq, h.hash INTO head_seq, head_hash FROM audit_heads h WHERE h.company_id = company; IF NOT FOUND THEN head_seq := 0; head_hash := repeat('0', 64); END IF; END IF; head_seq := head_seq + 1; next_hash := audit_event_hash(head_hash, audit_event_canonical(e, head_seq)); ids := ids || e.id; companies := companies || e.company_id; seqs := seqs || head_seq; prevs := prevs || head_hash; hashes := hashes || next_hash; head_hash := next_hash; END LOOP; INSERT INTO audit_seals (event_id, company_id, seq, prev_hash, hash) SELECT * FROM unnest(ids, companies, seqs, prevs, hashes); INSERT INTO audit_heads AS h (company_id, seq, hash) SELECT DISTINCT ON (c) c, s, x FROM unnest(companies, seqs, hashes) AS t(c, s, x) ORDER BY c, s DESC ON CONFLICT (company_id) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash; UPDATE audit_seal_state SET sealed_xid = horizon; RETURN coalesce(array_length(ids, 1), 0); END $$;
CREATE TRIGGER audit_seals_no_update_delete BEFORE UPDATE OR DELETE ON audit_seals FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
CREATE TRIGGER audit_seals_no_truncate BEFORE TRUNCATE ON audit_seals FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();
