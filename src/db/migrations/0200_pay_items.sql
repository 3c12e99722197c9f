-- Pay items and off-cycle runs (docs/payroll.md, "Pay items"; docs/payroll-runs.md, "Off-cycle runs").
-- A paystub is salary plus items: each item is stored with the flags of its type as they were when the
-- paystub was computed (a type's later change never rewrites a computed paystub), the part PAYE
-- counted, and its position on the paystub. Old paystubs have no items and keep every figure.
CREATE TABLE paystub_items (
  id bigserial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id),
  paystub_id integer NOT NULL REFERENCES paystubs(id) ON DELETE CASCADE,
  position smallint NOT NULL,
  code text NOT NULL,
  name text NOT NULL,
  treatment text NOT NULL CHECK (treatment IN ('earning', 'deduction')),
  amount numeric(18,2) NOT NULL CHECK (amount > 0),
  taxable_amount numeric(18,2) NOT NULL,
  taxable boolean NOT NULL,
  pensionable boolean NOT NULL,
  nhf_base boolean NOT NULL,
  nsitf_base boolean NOT NULL,
  regular boolean NOT NULL,
  cash boolean NOT NULL,
  description text,
  origin_period text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (paystub_id, position)
);
CREATE INDEX paystub_items_company_code_idx ON paystub_items (company_id, code);

-- The items' taxable amounts (they join T in a cumulative year to date), the irregular part of gross
-- (totals split regular and irregular gross), the items' NSITF base, and the run kind: off-cycle
-- paystubs may overlap a regular one of the same period.
ALTER TABLE paystubs ADD COLUMN taxable_items numeric(18,2) NOT NULL DEFAULT 0;
ALTER TABLE paystubs ADD COLUMN irregular_gross numeric(18,2) NOT NULL DEFAULT 0;
ALTER TABLE paystubs ADD COLUMN nsitf_items numeric(18,2) NOT NULL DEFAULT 0;
ALTER TABLE paystubs ADD COLUMN off_cycle boolean NOT NULL DEFAULT false;
DROP INDEX paystubs_user_period_key;
CREATE UNIQUE INDEX paystubs_user_period_key ON paystubs (user_id, pay_period_start, pay_period_end) WHERE status <> 'cancelled' AND NOT off_cycle;

ALTER TABLE payroll_runs ADD COLUMN kind text NOT NULL DEFAULT 'regular' CHECK (kind IN ('regular', 'off_cycle'));
ALTER TABLE payroll_runs ADD COLUMN reason text CHECK (reason IN ('bonus', 'correction', 'final_pay', 'other'));
CREATE INDEX payroll_runs_company_kind_idx ON payroll_runs (company_id, kind, created_at DESC);
