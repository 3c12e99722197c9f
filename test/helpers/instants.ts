// Rows read two ways compared column by column: Drizzle's mapping gives timestamps as Dates, the hot
// pages' array rows (src/db/prepared.ts `keyedRows`) give PostgreSQL's text of the same instants.
import { isoTimestamp } from '../../src/platform/format.js';

const PG_TIMESTAMP_TEXT = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/;

/** The row with each timestamp (a Date, or PostgreSQL's text of one) as the instant the API writes (isoTimestamp). */
export function withInstants(row: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [
      key,
      value instanceof Date || (typeof value === 'string' && PG_TIMESTAMP_TEXT.test(value)) ? isoTimestamp(value) : value,
    ]),
  );
}
