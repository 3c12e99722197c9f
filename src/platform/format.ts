// Wire formats shared by every feature (decisions.md §2): UTC timestamps with microseconds and Z,
// money as two-decimal strings.

/** `2026-11-22T10:15:00.000000Z`; null stays null. */
export function isoTimestamp(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const date = typeof value === 'string' ? new Date(value) : value;
  return `${date.toISOString().slice(0, 23)}000Z`;
}

/** A numeric column (already a decimal string) as `"250000.00"`; null stays null. */
export function moneyString(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const [whole, fraction = ''] = value.split('.');
  return `${whole}.${`${fraction}00`.slice(0, 2)}`;
}

/** `YYYY-MM-DD` of a date column (strings pass through). */
export function dateOnly(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10);
}
