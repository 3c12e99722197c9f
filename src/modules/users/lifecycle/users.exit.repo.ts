// Leavers on the user record (docs/users.md, "Leavers"): the recorded exit and the one rule that
// turns it into the `exited` standing. Nothing stores `exited`: it is computed wherever a user is
// read (the User object's `is_active`, U1's and the console's status filters, console sign-in),
// all of them through `isExited` in JS or `exitedSql` in SQL, against the Lagos day.
import { type Column, type SQL, sql } from 'drizzle-orm';

/** The reasons an exit may give (POST /api/users/{id}/terminate; 0202_leavers.sql checks the same list). */
export const EXIT_REASONS = ['resignation', 'dismissal', 'redundancy', 'retirement', 'death', 'end_of_contract', 'other'] as const;
export type ExitReason = (typeof EXIT_REASONS)[number];

/** Exited from the day after the exit date: on the exit date itself the user still works (and is paid for it). */
export function isExited(exitDate: string | null | undefined, today: string): boolean {
  return exitDate !== null && exitDate !== undefined && exitDate < today;
}

/** `isExited` in SQL, for a date column and `today` (a `YYYY-MM-DD` parameter): false without an exit. */
export function exitedSql(exitDate: Column | SQL, today: SQL | string): SQL<boolean> {
  return sql<boolean>`coalesce(${exitDate} < ${today}::date, false)`;
}

/**
 * The Lagos day by the database's clock, for a check made inside another module's statement (who
 * may approve a run or an invoice): `exitedSql(u.exit_date, LAGOS_TODAY_SQL)`. UTC+1, as lagosDate.
 */
export const LAGOS_TODAY_SQL = sql`((now() AT TIME ZONE 'UTC') + interval '1 hour')::date`;
