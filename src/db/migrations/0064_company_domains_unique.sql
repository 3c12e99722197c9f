-- Every e-mail domain belongs to at most one company, as its primary domain or an extra one
-- (docs/companies-invoices.md, "Uniqueness"). company_domains holds every domain of a company,
-- the primary included; one unique index on lower(name) then covers both kinds, so no check in
-- code can be raced. Existing data is repaired first so that the index can always be built:

-- 1. A primary domain missing from company_domains is added (C2 and the operator always add it).
INSERT INTO company_domains (company_id, name)
SELECT c.id, lower(c.domain) FROM companies c
WHERE NOT EXISTS (SELECT 1 FROM company_domains d WHERE d.company_id = c.id AND lower(d.name) = lower(c.domain));

-- 2. The same domain twice in one company, differing only in case: its users move to the older row.
UPDATE users u SET domain_id = (
  SELECT min(w.id) FROM company_domains w JOIN company_domains d ON d.id = u.domain_id
  WHERE w.company_id = d.company_id AND lower(w.name) = lower(d.name)
)
WHERE u.domain_id IN (
  SELECT d.id FROM company_domains d JOIN company_domains w
    ON w.company_id = d.company_id AND lower(w.name) = lower(d.name) AND w.id < d.id
);
DELETE FROM company_domains d USING company_domains w
WHERE w.company_id = d.company_id AND lower(w.name) = lower(d.name) AND w.id < d.id;

-- 3. A domain held by several companies stays with the company whose primary domain it is, else
-- with the oldest claim. The other companies lose it: their users keep their addresses (domain_id
-- is cleared) and no new address can be made on it there.
UPDATE users SET domain_id = NULL
WHERE domain_id IN (
  SELECT d.id FROM company_domains d JOIN company_domains w
    ON lower(w.name) = lower(d.name) AND w.company_id <> d.company_id
  WHERE (
    EXISTS (SELECT 1 FROM companies c WHERE c.id = w.company_id AND lower(c.domain) = lower(w.name)),
    w.id < d.id
  ) > (
    EXISTS (SELECT 1 FROM companies c WHERE c.id = d.company_id AND lower(c.domain) = lower(d.name)),
    d.id < w.id
  )
);
DELETE FROM company_domains d USING company_domains w
WHERE lower(w.name) = lower(d.name) AND w.company_id <> d.company_id
  AND (
    EXISTS (SELECT 1 FROM companies c WHERE c.id = w.company_id AND lower(c.domain) = lower(w.name)),
    w.id < d.id
  ) > (
    EXISTS (SELECT 1 FROM companies c WHERE c.id = d.company_id AND lower(c.domain) = lower(d.name)),
    d.id < w.id
  );

CREATE UNIQUE INDEX company_domains_name_key ON company_domains (lower(name));
