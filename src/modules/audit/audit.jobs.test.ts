// The audit.seal job (docs/audit.md, "The chain") as the job runner runs it: one recurring row that
// seals what committed (on PostgreSQL, within a few turns), keeps its row open for the next turn
// (never done, never failed), and stays one row however often the service starts.
import { sql } from 'drizzle-orm';
import { describe, expect, test } from '../../../test/helpers/fixtures.js';
import { newUserBody } from '../../../test/helpers/users.js';
import { type Executor, queryRows } from '../../db/client.js';
import { AUDIT_SEAL, SEAL_EVERY_SECONDS } from './audit.jobs.js';

const sealJobs = (db: Executor) =>
  queryRows<{ id: number; done: boolean; failed: boolean; wait: number }>(
    db,
    sql`SELECT id::int AS id, done_at IS NOT NULL AS done, failed_at IS NOT NULL AS failed,
               extract(epoch FROM run_at - now())::float8 AS wait
        FROM jobs WHERE kind = ${AUDIT_SEAL} ORDER BY id`,
  );
const seqs = (db: Executor, companyId: number) =>
  queryRows<{ action: string; seq: number | null }>(
    db,
    sql`SELECT e.action, s.seq::int AS seq FROM audit_events e LEFT JOIN audit_seals s ON s.event_id = e.id
        WHERE e.company_id = ${companyId} ORDER BY e.id`,
  );

describe('the audit.seal job', () => {
  test('seals committed events when it runs, and keeps one open row that comes back every few seconds', async ({ ctx, company, api }) => {
    const created = await api.post('/api/users', newUserBody(company));
    expect(created.statusCode, created.body).toBe(200);
    expect((await seqs(ctx.db, company.id)).some((event) => event.seq === null)).toBe(true);

    await ctx.app.deps.jobs.ensureRecurring();
    await ctx.app.deps.jobs.ensureRecurring(); // a second start adds no second row
    const [job] = await sealJobs(ctx.db);
    expect(await sealJobs(ctx.db)).toHaveLength(1);
    // On PostgreSQL a transaction still running in another test file's database holds the horizon
    // back for a moment (docs/audit.md, "The chain"): the job's next turns seal what it left.
    let sealed = await seqs(ctx.db, company.id);
    for (let turn = 0; turn < 200 && sealed.some((event) => event.seq === null); turn++) {
      await ctx.db.execute(sql`UPDATE jobs SET run_at = now() WHERE id = ${job.id}`);
      await ctx.app.deps.jobs.runDue(100);
      sealed = await seqs(ctx.db, company.id);
      if (sealed.some((event) => event.seq === null)) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(sealed.length).toBeGreaterThan(0);
    expect(sealed.map((event) => event.seq)).toEqual(sealed.map((_, i) => i + 1));
    const [after] = await sealJobs(ctx.db);
    expect(after).toMatchObject({ id: job.id, done: false, failed: false });
    expect(after.wait).toBeGreaterThan(0);
    expect(after.wait).toBeLessThanOrEqual(SEAL_EVERY_SECONDS + 1);
  });
});
