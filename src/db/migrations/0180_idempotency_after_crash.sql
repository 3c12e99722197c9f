-- Idempotency-Key after a crash (docs/decisions.md, "Idempotency-Key after a crash").
-- A claim names its owner (the server instance that runs it) and a claim token: a retry takes over
-- a claim whose owner stopped beating, and the handler's own transaction marks the key committed
-- (with the resource it made or changed) only while its token still holds the claim.
CREATE TABLE server_instances (
  id text PRIMARY KEY,
  started_at timestamptz NOT NULL DEFAULT now(),
  last_seen timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE idempotency_keys ADD COLUMN owner text;
ALTER TABLE idempotency_keys ADD COLUMN claim_token text;
ALTER TABLE idempotency_keys ADD COLUMN committed_at timestamptz;
ALTER TABLE idempotency_keys ADD COLUMN resource_kind text;
ALTER TABLE idempotency_keys ADD COLUMN resource_id text;
