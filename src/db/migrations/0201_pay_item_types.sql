-- A company's own pay item types (docs/payroll.md, "Pay item types"). The built-in types are law and
-- live in code (src/tax-engine/pay-items.ts), never here; a company's code may not repeat one, and
-- the service refuses that before it writes. The unique index serves the company_id foreign key and
-- the list (ordered by code) as well.
CREATE TABLE pay_item_types (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id),
  code text NOT NULL CHECK (code ~ '^[a-z][a-z0-9_]{1,39}$'),
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  treatment text NOT NULL CHECK (treatment IN ('earning', 'deduction')),
  taxable boolean NOT NULL,
  pensionable boolean NOT NULL,
  nhf_base boolean NOT NULL,
  nsitf_base boolean NOT NULL,
  regular boolean NOT NULL,
  cash boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- A deduction is taken after tax from cash pay and is in no statutory base; a non-cash earning
  -- that is not taxed would do nothing.
  CHECK (treatment = 'earning' OR (cash AND NOT (taxable OR pensionable OR nhf_base OR nsitf_base))),
  CHECK (cash OR taxable)
);
CREATE UNIQUE INDEX pay_item_types_company_code_key ON pay_item_types (company_id, code);
