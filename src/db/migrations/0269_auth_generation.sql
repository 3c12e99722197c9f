-- Revocation by generation (docs/decisions.md, "Authentication cache: up to 60 s, revocation
-- within 1 s"). Each instance caches token lookups (the token with its company's is_active,
-- api_access and plan) for up to a minute, and reads this one number at most once a second: when
-- it has moved, the instance empties its cache. So every change that can take access away moves
-- it, in the same transaction (other instances see the new number when the change commits, never
-- before): a token revoked, expired, given other scopes, moved or deleted; a company deactivated,
-- its API access or plan changed, or deleted; whatever writes it (this server, another instance, the
-- CLI on the database, psql).
--
-- api_tokens' UPDATE trigger compares the rows before and after (transition tables) instead of
-- naming columns: PostgreSQL allows no transition table on an `UPDATE OF <columns>` trigger, and a
-- statement trigger without one fires on zero rows too, so every new company (issueToken revokes
-- the company's live tokens first, none) would have moved the number, emptied every instance's
-- cache and queued company creations behind this row's lock. The last-use writes (last_used_at
-- only, one statement a second per instance) leave the number alone. companies' is named by column:
-- its hot update (employee_seq, at every user created) must not pay for transition tables.
CREATE TABLE auth_generation (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  generation bigint NOT NULL DEFAULT 0
);
INSERT INTO auth_generation (id) VALUES (1);

CREATE FUNCTION auth_generation_bump() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE auth_generation SET generation = generation + 1 WHERE id = 1; RETURN NULL; END $$;
CREATE FUNCTION api_tokens_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF EXISTS (SELECT id, company_id, token_hash, scopes, expired_at, revoked_at FROM api_tokens_before EXCEPT SELECT id, company_id, token_hash, scopes, expired_at, revoked_at FROM api_tokens_after) THEN UPDATE auth_generation SET generation = generation + 1 WHERE id = 1; END IF; RETURN NULL; END $$;

CREATE TRIGGER api_tokens_auth_generation_update AFTER UPDATE ON api_tokens REFERENCING OLD TABLE AS api_tokens_before NEW TABLE AS api_tokens_after FOR EACH STATEMENT EXECUTE FUNCTION api_tokens_access_changed();
CREATE TRIGGER api_tokens_auth_generation_delete AFTER DELETE ON api_tokens FOR EACH STATEMENT EXECUTE FUNCTION auth_generation_bump();
CREATE TRIGGER api_tokens_auth_generation_truncate AFTER TRUNCATE ON api_tokens FOR EACH STATEMENT EXECUTE FUNCTION auth_generation_bump();
CREATE TRIGGER companies_auth_generation_update AFTER UPDATE OF is_active, api_access, plan ON companies FOR EACH STATEMENT EXECUTE FUNCTION auth_generation_bump();
CREATE TRIGGER companies_auth_generation_delete AFTER DELETE ON companies FOR EACH STATEMENT EXECUTE FUNCTION auth_generation_bump();
CREATE TRIGGER companies_auth_generation_truncate AFTER TRUNCATE ON companies FOR EACH STATEMENT EXECUTE FUNCTION auth_generation_bump();
