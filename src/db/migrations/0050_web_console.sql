-- The company console (src/web): sign-in sessions and failed sign-in attempts.
-- Sessions: only the SHA-256 of the random cookie value is stored, so a database read does not
-- hand out live sessions. csrf_token is the per-session secret every console form must echo.
CREATE TABLE web_sessions (
  id serial PRIMARY KEY,
  token_hash text NOT NULL,
  csrf_token text NOT NULL,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX web_sessions_token_hash_key ON web_sessions (token_hash);
CREATE INDEX web_sessions_user_idx ON web_sessions (user_id);
CREATE INDEX web_sessions_company_idx ON web_sessions (company_id);
CREATE INDEX web_sessions_expires_idx ON web_sessions (expires_at);

-- One row per failed sign-in; throttling counts rows of a key inside the window. key_hash is the
-- SHA-256 of "ip|identifier" (per account) or "ip|*" (per address), so no e-mail is stored.
CREATE TABLE web_login_failures (
  id bigserial PRIMARY KEY,
  key_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX web_login_failures_key_idx ON web_login_failures (key_hash, created_at);

-- Sign-in looks users up by company or personal e-mail across companies, case-insensitively.
CREATE INDEX web_users_email_lower_idx ON users (lower(email)) WHERE deleted_at IS NULL;
CREATE INDEX web_users_personal_email_lower_idx ON users (lower(personal_email)) WHERE deleted_at IS NULL;
