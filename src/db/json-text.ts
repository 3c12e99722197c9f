// JSON text written by PostgreSQL for the answers the API sends as text (docs/decisions.md,
// "Answers written as JSON text": U1's users, P1's paystubs). SQL fragments only, which the repos
// select. Each value's text is byte for byte what the route's serializer (JSON.stringify, or
// fast-json-stringify by the response schema: the same bytes for these values) writes for the value
// the JS path hands it; the tests of each user of these fragments hold the two equal
// (users.json.test.ts, paystubs.json.test.ts). The format rules, each mirroring one in JS:
// - strings through to_json, whose escaping is JSON.stringify's (`"` `\` and the control
//   characters, \b \f \n \r \t by name and the others as lowercase \u00xx; nothing else escaped);
// - timestamps as isoTimestamp (platform/format.ts) writes them (`2026-11-22T10:15:00.123000Z`:
//   UTC, milliseconds truncated, three zeros; to_char's MS truncates too);
// - dates as `YYYY-MM-DD` (to_json of a date is ISO whatever the session's DateStyle);
// - money strings as the numeric(18,2) text, which always has the two decimals moneyString writes;
// - money numbers (`number`) as JSON prints Number(text) of the numeric's text: see jsonNumber;
// - booleans, integers and arrays of strings as JSON writes them.
import { type Column, type SQL, sql } from 'drizzle-orm';

export type JsonKind = 'integer' | 'string' | 'boolean' | 'timestamp' | 'date' | 'money' | 'number' | 'strings' | 'jsonStrings';

/**
 * A numeric as JSON prints the double nearest to it (`Number(text)`, tax-engine/money.ts
 * columnToNumber): the shortest decimal that reads back as that double, in fixed notation below
 * 1e21. Below 1e13 a numeric of at most two places has at most 15 significant digits, and every
 * such decimal is the shortest text of its own double: its text without trailing fractional zeros
 * (trim_scale) is the answer, no float involved. From 1e13 (₦10 trillion: not a paystub anyone
 * pays, but byte-for-byte is the contract) PostgreSQL's float8 text gives the shortest digits too
 * (Ryu, ties to even as ECMAScript's Number::toString; the session's extra_float_digits must be
 * above 0, PostgreSQL's default since 12), in exponent form from 1e15 (`1.2345678901234562e+15`),
 * rewritten to JS's fixed notation. Those two branches are the function json_number_wide
 * (migrations/0271): PostgreSQL sets up every expression of a statement on each execution, and
 * with the branches inline each of a page's numbers carried some forty nodes that nearly never run
 * (docs/payroll.md, "P1"). `value` appears three times, so pass a column or a cheap expression.
 */
function jsonNumber(value: Column | SQL): SQL {
  return sql`CASE WHEN abs(${value}) < 1e13 THEN trim_scale(${value})::text ELSE json_number_wide(${value}) END`;
}

/** A JSON value's text, or `null`, for a column (or expression) of each kind. */
export function jsonValueOf(column: Column | SQL, kind: JsonKind): SQL {
  switch (kind) {
    case 'integer':
    case 'boolean':
      return sql`coalesce(${column}::text, 'null')`;
    case 'string':
    case 'date':
      return sql`coalesce(to_json(${column})::text, 'null')`;
    case 'money':
      return sql`coalesce('"' || ${column}::text || '"', 'null')`;
    case 'number':
      return sql`coalesce(${jsonNumber(column)}, 'null')`;
    case 'timestamp':
      return sql`coalesce(to_char(${column} AT TIME ZONE 'UTC', '"\\""YYYY-MM-DD"T"HH24:MI:SS.MS"000Z\\""'), 'null')`;
    case 'strings':
      return sql`coalesce(array_to_json(${column})::text, 'null')`;
    case 'jsonStrings':
      // A jsonb array of strings (document_paths): jsonb's own text puts a space after each comma.
      return sql`CASE WHEN jsonb_typeof(${column}) = 'array' THEN array_to_json(ARRAY(SELECT jsonb_array_elements_text(${column})))::text ELSE 'null' END`;
  }
}

/**
 * The text of a JSON object with these keys in this order (a response schema's order) and these
 * values' texts (jsonValueOf, or any SQL text of a JSON value; none may be NULL). concat() takes at
 * most 100 arguments (a key's literal and a value per field): one call per 40 fields.
 */
export function jsonObject(fields: readonly (readonly [string, SQL])[]): SQL<string> {
  return sql<string>`(${jsonObjectOpen(fields)} || '}')`;
}

/** jsonObject without its closing brace: the head of an object whose last fields are written elsewhere. */
export function jsonObjectOpen(fields: readonly (readonly [string, SQL])[]): SQL<string> {
  const parts = fields.flatMap(([key, value], index) => [sql.raw(`'${index === 0 ? '{' : ','}"${key}":'`), value]);
  const calls: SQL[] = [];
  for (let start = 0; start < parts.length; start += 80) calls.push(sql`concat(${sql.join(parts.slice(start, start + 80), sql`, `)})`);
  return sql<string>`(${sql.join(calls, sql` || `)})`;
}

/**
 * jsonValueOf for a column named by its statement's alias (`p.net_pay`, `r.created_at`), one writer
 * per kind: what the repos that write JSON text select, field by field.
 */
const aliased = (kind: JsonKind) => (name: string) => jsonValueOf(sql.raw(name), kind);
export const aliasJson = {
  int: aliased('integer'),
  str: aliased('string'),
  num: aliased('number'),
  bool: aliased('boolean'),
  at: aliased('timestamp'),
  day: aliased('date'),
};
