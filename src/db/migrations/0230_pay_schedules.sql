-- Pay schedules (docs/payroll-runs.md, "Pay schedules"): a durable job creates each period's draft
-- run. pay_schedule_periods is the exactly-once key: one row per schedule and period, written in
-- the transaction that creates the run (or records why it could not), so a restart, a second
-- instance or a lost lease can never create a period twice. next_period_start/next_creation_at
-- are the schedule's cursor; claimed_until is the batch claim's lease (FOR UPDATE SKIP LOCKED).
CREATE TABLE pay_schedules (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id),
  name text NOT NULL,
  frequency text NOT NULL CHECK (frequency IN ('monthly', 'weekly', 'bi-weekly')),
  pay_day text NOT NULL,
  first_period_start date NOT NULL,
  create_days_before integer NOT NULL DEFAULT 5 CHECK (create_days_before BETWEEN 0 AND 60),
  include jsonb,
  active boolean NOT NULL DEFAULT true,
  deleted_at timestamptz,
  next_period_start date,
  next_creation_at timestamptz,
  claimed_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pay_schedules_company_idx ON pay_schedules (company_id, id);
-- The job's claim: active schedules whose creation time has come.
CREATE INDEX pay_schedules_due_idx ON pay_schedules (next_creation_at) WHERE active;

CREATE TABLE pay_schedule_periods (
  schedule_id integer NOT NULL REFERENCES pay_schedules(id),
  company_id integer NOT NULL REFERENCES companies(id),
  period_start date NOT NULL,
  period_end date NOT NULL,
  payment_date date NOT NULL,
  run_id text REFERENCES payroll_runs(id),
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (schedule_id, period_start)
);
CREATE INDEX pay_schedule_periods_company_idx ON pay_schedule_periods (company_id, schedule_id);
CREATE INDEX pay_schedule_periods_run_idx ON pay_schedule_periods (run_id) WHERE run_id IS NOT NULL;

ALTER TABLE payroll_runs ADD COLUMN schedule_id integer REFERENCES pay_schedules(id);
CREATE INDEX payroll_runs_schedule_idx ON payroll_runs (schedule_id) WHERE schedule_id IS NOT NULL;
