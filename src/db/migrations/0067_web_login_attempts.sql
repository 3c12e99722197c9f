-- Sign-in throttle as one counter row per key (SHA-256 of IP + identifier, or of IP alone), taken
-- with a single INSERT ... ON CONFLICT DO UPDATE before the password check: parallel attempts are
-- counted one by one, so at most the limit of them ever reach argon2 (docs/console.md).
-- created_at is the start of the key's 15-minute window. Old per-failure rows are dropped: at
-- worst a throttle that was running restarts.
DELETE FROM web_login_failures;
ALTER TABLE web_login_failures ADD COLUMN attempts integer NOT NULL DEFAULT 1;
DROP INDEX IF EXISTS web_login_failures_key_idx;
CREATE UNIQUE INDEX web_login_failures_key_hash_key ON web_login_failures (key_hash);
