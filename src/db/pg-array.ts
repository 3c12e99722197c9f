// Array parameters that work the same on PGlite and node-postgres.
/**
 * A PostgreSQL array literal ('{1,2,"a b"}') passed as ONE text parameter and cast in SQL
 * (`${pgArray(ids)}::int[]`): identical on PGlite and node-postgres, and one parameter however
 * many rows, so batch statements stay far below the 65,535-parameter limit.
 */
export function pgArray(values: readonly (string | number | boolean | null)[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null) parts[i] = 'NULL';
    else if (typeof value !== 'string') parts[i] = String(value);
    // Decimals, dates and plain words need no quotes (most of a run's cells); 'null' would read as NULL.
    else if (SAFE_ELEMENT.test(value) && value.toLowerCase() !== 'null') parts[i] = value;
    else parts[i] = `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  }
  return `{${parts.join(',')}}`;
}

const SAFE_ELEMENT = /^[0-9A-Za-z._-]+$/;
