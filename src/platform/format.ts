// Wire formats shared by every feature (decisions.md §2): UTC timestamps with microseconds and Z,
// dates as YYYY-MM-DD. Money formats are the money kernel's (payroll/money.ts).

/** `2026-11-22T10:15:00.000000Z`; null stays null. */
export function isoTimestamp(value: Date | string): string;
export function isoTimestamp(value: Date | string | null | undefined): string | null;
export function isoTimestamp(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
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
