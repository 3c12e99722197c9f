// The audit sealer, for tests that read seq, prev_hash or hash (docs/audit.md, "The chain"): seals
// until every event of the company has its seal. On PostgreSQL a transaction still running in
// another test file's database holds the horizon back for a moment, so it tries again, briefly.
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../src/db/client.js';
import { sealAuditEvents } from '../../src/platform/audit/index.js';

export async function sealAudit(db: Executor, companyId?: number): Promise<void> {
  const only = companyId === undefined ? sql`TRUE` : sql`e.company_id = ${companyId}`;
  for (let attempt = 0; ; attempt++) {
    await sealAuditEvents(db);
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM audit_events e WHERE ${only} AND NOT EXISTS (SELECT 1 FROM audit_seals s WHERE s.event_id = e.id)`,
    );
    if (row.n === 0) return;
    if (attempt >= 200) throw new Error(`${row.n} audit events are still unsealed after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
