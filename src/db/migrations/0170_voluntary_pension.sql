-- The pension schedule's "voluntary contribution" column (docs/compliance.md, "Remittances",
-- PenCom's remittance schedule): in this service a voluntary pension contribution is a custom
-- contribution marked tax_deductible (docs/compliance.md, "Voluntary pension": its employee part
-- reduces taxable income; only on gross pay). A record keeps the rule's flag as it was when the
-- paystub was computed, like it keeps the name and the amounts, so editing or deleting the rule
-- later does not rewrite a past month's schedule.
ALTER TABLE custom_contribution_records ADD COLUMN tax_deductible boolean NOT NULL DEFAULT false;
-- Records written before this migration take the rule's current flag (the best evidence left);
-- records of deleted rules stay false. docs/compliance.md says so.
UPDATE custom_contribution_records r SET tax_deductible = true
  FROM custom_contributions c
 WHERE r.custom_contribution_id = c.id AND c.tax_deductible;
