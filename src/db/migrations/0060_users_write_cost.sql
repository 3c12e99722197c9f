-- Every index on users is paid for on every insert (a 10,000-row CSV import writes 10,000 rows).
-- Two of them duplicated others:
-- * web_users_personal_email_lower_idx is the same index as users_personal_email_lower_idx (0030).
-- * users_company_email_idx (company_id, email) adds nothing to users_email_key (email): company
--   e-mails are unique across all live users, so a company-scoped lookup is one probe of the key.
DROP INDEX IF EXISTS web_users_personal_email_lower_idx;
DROP INDEX IF EXISTS users_company_email_idx;
