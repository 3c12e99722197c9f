-- Columns that two features share, added once so that each can build on them. Users: the bank
-- account's identity (bank_code, the provider-resolved account_name and when it was verified) and
-- the statutory identity an employer files schedules with. All optional; the API validates their
-- formats.
ALTER TABLE users
  ADD COLUMN bank_code text,
  ADD COLUMN account_name text,
  ADD COLUMN bank_account_verified_at timestamptz,
  ADD COLUMN nin text,
  ADD COLUMN tax_id text,
  ADD COLUMN state_of_residence text,
  ADD COLUMN rsa_pin text,
  ADD COLUMN pfa_code text,
  ADD COLUMN nhf_number text,
  ADD COLUMN nhf_opt_in boolean NOT NULL DEFAULT false,
  ADD COLUMN gender text CHECK (gender IN ('male', 'female')),
  ADD COLUMN is_expatriate boolean NOT NULL DEFAULT false;

-- NHF became voluntary for private-sector employees (Business Facilitation Act 2023, s.45). Every
-- existing employee of a company that deducts NHF (its settings say so, or it has no settings row and
-- the default applies) is opted in, so that no existing employer's figures change; new users start
-- opted out.
UPDATE users u SET nhf_opt_in = true
WHERE NOT EXISTS (SELECT 1 FROM contribution_settings s WHERE s.company_id = u.company_id AND s.nhf_enabled <> 'true');

-- Companies: the sector (NHF is compulsory in the public sector) and the employer's registrations.
ALTER TABLE companies
  ADD COLUMN sector text NOT NULL DEFAULT 'private' CHECK (sector IN ('private', 'public')),
  ADD COLUMN rc_number text,
  ADD COLUMN pencom_employer_code text,
  ADD COLUMN nhf_employer_number text,
  ADD COLUMN nsitf_number text,
  ADD COLUMN itf_number text,
  ADD COLUMN tax_ids jsonb NOT NULL DEFAULT '{}'::jsonb;
