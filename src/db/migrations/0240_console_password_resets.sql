-- Console password resets (docs/console.md, "Forgot password"): one row per e-mailed link. Only the
-- SHA-256 of the link's secret is stored; a link works once (used_at) and until expires_at (30 min).
CREATE TABLE web_password_resets (
  id bigserial PRIMARY KEY,
  token_hash text NOT NULL,
  company_id integer NOT NULL REFERENCES companies(id),
  user_id integer NOT NULL REFERENCES users(id),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX web_password_resets_token_hash_key ON web_password_resets (token_hash);
CREATE INDEX web_password_resets_user_idx ON web_password_resets (company_id, user_id);
