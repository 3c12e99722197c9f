// Seals the audit events of some companies before a scenario reads them, as a live log is sealed:
// audit_seal() here and the server's own sealer job take turns on the watermark, so one call may
// seal nothing; it is called until no event of those companies is left unsealed (the shared loop of
// audit-read and 13-control-lists).
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../src/db/client.js';
import { pgArray } from '../../src/db/pg-array.js';

export async function sealAll(db: Executor, companyIds: number[]): Promise<void> {
  for (;;) {
    await queryRows(db, sql`SELECT audit_seal()`);
    const [{ n }] = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM audit_events e WHERE e.company_id = ANY(${pgArray(companyIds)}::int[])
            AND NOT EXISTS (SELECT 1 FROM audit_seals s WHERE s.event_id = e.id)`,
    );
    if (n === 0) return;
  }
}
