-- Webhooks see only what their creator may read (docs/webhooks.md, "Scopes"). An endpoint records
-- who created it: a token (created_by_company_id: the company whose token it was, the caller, which
-- may be a parent acting for a child; created_by_token_id: that token, for the record) or the
-- console (created_via = 'console', reading what the company may: `all`). Deliveries of a
-- token-created endpoint are filtered by the scopes of that company's live token at the time.
ALTER TABLE webhook_endpoints ADD COLUMN created_via text NOT NULL DEFAULT 'token' CHECK (created_via IN ('token', 'console'));
ALTER TABLE webhook_endpoints ADD COLUMN created_by_company_id integer;
ALTER TABLE webhook_endpoints ADD COLUMN created_by_token_id integer;
-- Endpoints created before this migration do not say who created them: they are treated as created
-- by their company's token (filtered by its scopes), the safe reading; a console administrator who
-- wants a console endpoint recreates it in the console (docs/webhooks.md says so).
UPDATE webhook_endpoints SET created_by_company_id = company_id;
