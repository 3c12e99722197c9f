-- The JSON text of a numeric of 1e13 or more in absolute value, as JavaScript writes the double
-- nearest to it (src/db/json-text.ts, jsonNumber). These branches used to be written inline into
-- every number of a JSON statement, where PostgreSQL set up their expressions on each execution
-- although amounts that large are rare (docs/payroll.md, "P1"). STABLE: float8's text follows the
-- session's extra_float_digits.
CREATE FUNCTION json_number_wide(value numeric) RETURNS text LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE AS $$ DECLARE float text := value::float8::text; digits text; whole int; BEGIN IF abs(value) < 1e15 THEN RETURN float; END IF; digits := replace(ltrim(split_part(float, 'e', 1), '-'), '.', ''); whole := split_part(float, 'e', 2)::int + 1; RETURN CASE WHEN value < 0 THEN '-' ELSE '' END || CASE WHEN length(digits) <= whole THEN rpad(digits, whole, '0') ELSE left(digits, whole) || '.' || substr(digits, whole + 1) END; END $$;
