-- Users feature. Company e-mail derivation looks up every address sharing a "stem" (local part
-- without its trailing clash number, plus the domain) in one batched query. The stem index covers
-- ALL rows, deleted ones too, so a deleted employee's company address is never handed to someone
-- else.
CREATE INDEX IF NOT EXISTS users_email_stem_idx ON users ((regexp_replace(split_part(email, '@', 1), '[0-9]+$', '') || '@' || split_part(email, '@', 2)));
-- Bulk update and manager_email look users up by company e-mail within a company.
CREATE INDEX IF NOT EXISTS users_company_email_idx ON users (company_id, email) WHERE deleted_at IS NULL;
