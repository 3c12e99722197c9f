-- Console sessions cached under the authentication generation (docs/decisions.md, "Console sessions
-- cached"). Each instance keeps the sessions it has read (with their user's and company's names and
-- standing) for up to a minute, and reads auth_generation (0269) at most once a second: so every
-- change that can end a session or change what a page shows of it moves the number, in the same
-- transaction, whoever writes it (this server, another instance, the CLI, psql):
--
-- - a live session deleted: a sign-out, an end of sessions (password changed, user deactivated,
--   suspended, exited or deleted), a refused session, a cascade from its user or company. Deleting
--   only sessions past their hard expiry (the housekeeping of every sign-in) does not: no instance
--   uses an expired session, cached or not. Statement-level, with the deleted rows as a transition
--   table, so a housekeeping statement that finds nothing costs no write here.
-- - a session's row changed in anything but its last view (its hard expiry, its secrets, its user
--   or company: the console never does so, psql may). Row-level with a WHEN clause: the touch of
--   every minute costs a comparison.
-- - a console administrator's user changed in anything a session shows or depends on: roles,
--   activity, suspension, deletion, exit date, name, e-mail, company. Row-level with a WHEN clause,
--   evaluated without calling a function: an update of any other user, or of other columns (the
--   bulk updates of employees, payroll's writes), costs a comparison and no write.
-- - a company renamed (its standing, API access and plan already move the number, 0269).
CREATE FUNCTION web_sessions_live_deleted() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF EXISTS (SELECT 1 FROM web_sessions_before WHERE expires_at > now()) THEN UPDATE auth_generation SET generation = generation + 1 WHERE id = 1; END IF; RETURN NULL; END $$;

CREATE TRIGGER web_sessions_auth_generation_delete AFTER DELETE ON web_sessions REFERENCING OLD TABLE AS web_sessions_before FOR EACH STATEMENT EXECUTE FUNCTION web_sessions_live_deleted();
CREATE TRIGGER web_sessions_auth_generation_update AFTER UPDATE ON web_sessions FOR EACH ROW WHEN ((OLD.token_hash, OLD.csrf_token, OLD.user_id, OLD.company_id, OLD.expires_at) IS DISTINCT FROM (NEW.token_hash, NEW.csrf_token, NEW.user_id, NEW.company_id, NEW.expires_at)) EXECUTE FUNCTION auth_generation_bump();
CREATE TRIGGER web_sessions_auth_generation_truncate AFTER TRUNCATE ON web_sessions FOR EACH STATEMENT EXECUTE FUNCTION auth_generation_bump();
CREATE TRIGGER users_console_auth_generation_update AFTER UPDATE ON users FOR EACH ROW WHEN (OLD.roles && ARRAY['super-admin', 'admin']::text[] AND (OLD.roles, OLD.is_active, OLD.is_suspended, OLD.deleted_at, OLD.exit_date, OLD.first_name, OLD.last_name, OLD.email, OLD.company_id) IS DISTINCT FROM (NEW.roles, NEW.is_active, NEW.is_suspended, NEW.deleted_at, NEW.exit_date, NEW.first_name, NEW.last_name, NEW.email, NEW.company_id)) EXECUTE FUNCTION auth_generation_bump();
CREATE TRIGGER companies_console_auth_generation_update AFTER UPDATE ON companies FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION auth_generation_bump();
