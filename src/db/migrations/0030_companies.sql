-- Companies. The companies table itself is in 0001_foundation.sql. C2 checks the super admin's
-- personal e-mail against ALL users (docs/companies-invoices.md, "The companies and invoices
-- rules"), case-insensitively; this index makes that lookup one index probe instead of a scan of
-- every user.
CREATE INDEX users_personal_email_lower_idx ON users (lower(personal_email)) WHERE deleted_at IS NULL;
