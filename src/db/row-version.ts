// A row's version, for what an instance keeps of a row's text between requests (platform/kept-texts.ts):
// the row's xmin (the transaction that wrote this version of it: every update moves it) and its
// updated_at. xmin alone is unique while the database's transaction counter only moves forward; after
// a failover to a replica that had not replayed the last transactions, or a restore in place from a
// backup, the counter starts again below ids already seen, and a row could be written again by a
// transaction with the id of a version an instance kept. updated_at (set by every change the code
// makes, to a different instant) tells those apart. Epoch seconds as text: the same in any session's
// time zone.
import { type SQL, sql } from 'drizzle-orm';

/** The version of the row aliased `alias` (a table with updated_at), as text. */
export function rowVersion(alias: string): SQL<string> {
  return sql<string>`(${sql.raw(alias)}.xmin::text || '/' || extract(epoch FROM ${sql.raw(alias)}.updated_at)::text)`;
}
