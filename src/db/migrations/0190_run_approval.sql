-- Approval by a person (docs/payroll-runs.md, "Approval"): a company chooses whether a token's
-- approve approves at once (`token`, for platforms with their own maker-checker) or only asks a
-- named administrator, who then approves in the console (`person`, the default, for every existing
-- company too). A run records who created and approved it as users, and how it was approved.
ALTER TABLE companies ADD COLUMN run_approval text NOT NULL DEFAULT 'person';
ALTER TABLE companies ADD CONSTRAINT companies_run_approval_check CHECK (run_approval IN ('person', 'token'));
ALTER TABLE payroll_runs ADD COLUMN created_by_user_id integer;
ALTER TABLE payroll_runs ADD COLUMN approved_by_user_id integer;
ALTER TABLE payroll_runs ADD COLUMN approved_via text;
ALTER TABLE payroll_runs ADD CONSTRAINT payroll_runs_approved_via_check CHECK (approved_via IN ('console', 'email_link', 'token'));
-- Runs created before this migration: the creator is the user of the company whose company e-mail
-- (or else personal e-mail) was recorded, when exactly one user has it.
UPDATE payroll_runs r SET created_by_user_id = u.id
  FROM users u
 WHERE r.created_by_email IS NOT NULL AND u.company_id = r.company_id AND u.deleted_at IS NULL
   AND lower(u.email) = lower(r.created_by_email);
UPDATE payroll_runs r SET created_by_user_id = (
         SELECT min(u.id) FROM users u
          WHERE u.company_id = r.company_id AND u.deleted_at IS NULL AND lower(u.personal_email) = lower(r.created_by_email))
 WHERE r.created_by_email IS NOT NULL AND r.created_by_user_id IS NULL;
-- The one open approval request of a draft run (a later request replaces it): the named approver,
-- the SHA-256 of the e-mailed link's secret, and when the link stops working.
CREATE TABLE payroll_run_approval_requests (
  company_id integer NOT NULL,
  run_id text NOT NULL,
  approver_user_id integer NOT NULL,
  approver_email text NOT NULL,
  token_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, run_id)
);
