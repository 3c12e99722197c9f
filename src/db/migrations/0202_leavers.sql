-- Leavers (docs/users.md, "Leavers"): a user's recorded exit. `exited` is not stored: a user is
-- exited from the day after exit_date, computed when read (docs/users.md says why), so nothing has
-- to run at midnight and undoing an exit is clearing these two columns. The two are set and cleared
-- together. The partial index serves U1's `status=exited` filter and the console's: the company's
-- live users with an exit, by date (a range `exit_date < today`).
ALTER TABLE users ADD COLUMN exit_date date;
ALTER TABLE users ADD COLUMN exit_reason text;
ALTER TABLE users ADD CONSTRAINT users_exit_reason_check CHECK (exit_reason IN ('resignation', 'dismissal', 'redundancy', 'retirement', 'death', 'end_of_contract', 'other'));
ALTER TABLE users ADD CONSTRAINT users_exit_pair_check CHECK ((exit_date IS NULL) = (exit_reason IS NULL));
CREATE INDEX users_company_exit_date_idx ON users (company_id, exit_date) WHERE deleted_at IS NULL AND exit_date IS NOT NULL;
