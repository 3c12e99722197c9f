// Wire formats shared by every feature (docs/reference.md, "Common rules"): UTC timestamps with
// microseconds and Z, dates as YYYY-MM-DD. Money formats are the money kernel's (payroll/money.ts).

const PG_UTC_TIMESTAMP = /^([1-9]\d{3}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/;

/** `2026-11-22T10:15:00.000000Z` (milliseconds, truncated); null stays null. */
export function isoTimestamp(value: Date | string): string;
export function isoTimestamp(value: Date | string | null | undefined): string | null;
export function isoTimestamp(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    // PostgreSQL's own text for a UTC session (`2026-11-22 10:15:00.123456+00`, what the drivers give
    // when asked for the raw text) is rewritten without parsing a Date: same output, ~0.2 µs instead
    // of ~1.1 µs (format.test.ts holds them equal). Anything else (another offset, BC, years below
    // 1000, where V8's parser has its own ideas) goes through Date as before.
    const utc = PG_UTC_TIMESTAMP.exec(value);
    if (utc) return `${utc[1]}T${utc[2]}.${`${utc[3] ?? ''}000`.slice(0, 3)}000Z`;
  }
  const date = typeof value === 'string' ? new Date(value) : value;
  return `${date.toISOString().slice(0, 23)}000Z`;
}

/** `YYYY-MM-DD` of a date column (strings pass through). */
export function dateOnly(value: Date | string): string;
export function dateOnly(value: Date | string | null | undefined): string | null;
export function dateOnly(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10);
}

/**
 * The calendar day in Nigeria (`YYYY-MM-DD`): West Africa Time, UTC+1 all year (no daylight saving).
 * Day-based rules (a user is exited from the day after their exit date, docs/users.md, "Leavers")
 * turn at Lagos midnight, not at UTC midnight.
 */
export function lagosDate(now: Date = new Date()): string {
  return new Date(now.getTime() + 3_600_000).toISOString().slice(0, 10);
}
