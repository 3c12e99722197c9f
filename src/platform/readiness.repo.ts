// The readiness probe's one statement (readiness.ts).
import { type Database, sql } from '../db/client.js';

/** Resolves when the database answers a trivial query. */
export async function pingDatabase(database: Database): Promise<void> {
  await database.db.execute(sql`SELECT 1`);
}
