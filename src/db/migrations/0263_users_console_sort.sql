-- Console → Employees sorted by name or by employee number (docs/console.md, "Employees"): a page
-- of one company's live users in either order, either direction, read from an index (company, key,
-- id) instead of sorting the whole company for every page (users.search.repo.ts searchOrder).
CREATE INDEX users_company_name_idx ON users (company_id, last_name, first_name, id) WHERE deleted_at IS NULL;
CREATE INDEX users_company_employee_id_idx ON users (company_id, employee_id, id) WHERE deleted_at IS NULL;
