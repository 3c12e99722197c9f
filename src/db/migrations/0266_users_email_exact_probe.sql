-- U3's lookup (users_create_lookup, 0204) asks whether a name's first address is taken before it
-- reads the stem's addresses (docs/users.md, "Performance notes"). That test, `EXISTS (SELECT 1 FROM
-- users x WHERE x.email = s.exact)`, counts deleted users too (their addresses are never handed out
-- again: 0010), so users_email_key, partial on live users, could not answer it: PostgreSQL scanned
-- every user of every company for every create (3 ms at 10,000 users, growing with the table).
-- The stem index gains the address as a second column, so the test is one probe of it by the
-- address's own stem and the address (an index-only scan), deleted users included; reads of a whole
-- stem use its first column as before. Same number of indexes on users, same answers.
DROP INDEX users_email_stem_idx;
CREATE INDEX users_email_stem_idx ON users ((regexp_replace(split_part(email, '@', 1), '[0-9]+$', '') || '@' || split_part(email, '@', 2)), email);
CREATE OR REPLACE FUNCTION users_create_lookup(p_company integer, p_keys integer[], p_stems text[], p_exact text[], p_personal text[], p_managers text[]) RETURNS TABLE (found_kind text, found_email text, found_id integer) LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_advisory_xact_lock(p_company, k) FROM unnest(p_keys) AS k; RETURN QUERY SELECT 'taken'::text, t.email, NULL::integer FROM unnest(p_stems, p_exact) AS s(stem, exact) CROSS JOIN LATERAL (SELECT u.email FROM users u WHERE (regexp_replace(split_part(u.email, '@', 1), '[0-9]+$', '') || '@' || split_part(u.email, '@', 2)) = s.stem AND (s.exact IS NULL OR EXISTS (SELECT 1 FROM users x WHERE (regexp_replace(split_part(x.email, '@', 1), '[0-9]+$', '') || '@' || split_part(x.email, '@', 2)) = (regexp_replace(split_part(s.exact, '@', 1), '[0-9]+$', '') || '@' || split_part(s.exact, '@', 2)) AND x.email = s.exact)) OFFSET 0) AS t; RETURN QUERY SELECT 'personal'::text, u.personal_email, u.id FROM users u WHERE u.company_id = p_company AND u.personal_email = ANY(p_personal) AND u.deleted_at IS NULL; RETURN QUERY SELECT 'manager'::text, u.email, u.id FROM users u WHERE u.company_id = p_company AND u.email = ANY(p_managers) AND u.deleted_at IS NULL; END $$;
