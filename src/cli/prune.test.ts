// `payroll prune` (docs/operations.md, "History retention"): finished jobs and finished webhook
// events older than their retention go, in batches smaller than what there is to delete; unfinished
// jobs, recent history and events with a pending delivery stay, whatever their age.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { createCompany } from '../../test/helpers/factories.js';
import { queryRows } from '../db/client.js';
import { main } from './main.js';
import { DEFAULT_RETENTION, prune } from './prune.js';

let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(() => testDb.close());

const ago = (days: number) => sql`now() - make_interval(days => ${days})`;

describe('payroll prune', () => {
  it('deletes old finished jobs and old finished webhook events, in batches; keeps the rest', async () => {
    const { db } = testDb.database;
    const company = await createCompany(db);
    // Jobs: 12 done 8 days ago (go), 3 done yesterday, 4 failed 10 days ago (stay: failed keep 30),
    // 2 failed 40 days ago (go), 3 unfinished created 100 days ago (stay).
    await db.execute(
      sql`INSERT INTO jobs (kind, payload, done_at, created_at) SELECT 'prune.test', '{}', ${ago(8)}, ${ago(8)} FROM generate_series(1, 12)`,
    );
    await db.execute(sql`INSERT INTO jobs (kind, payload, done_at) SELECT 'prune.test', '{}', ${ago(1)} FROM generate_series(1, 3)`);
    await db.execute(sql`INSERT INTO jobs (kind, payload, failed_at) SELECT 'prune.test', '{}', ${ago(10)} FROM generate_series(1, 4)`);
    await db.execute(sql`INSERT INTO jobs (kind, payload, failed_at) SELECT 'prune.test', '{}', ${ago(40)} FROM generate_series(1, 2)`);
    await db.execute(
      sql`INSERT INTO jobs (kind, payload, run_at, created_at) SELECT 'prune.test', '{}', now() + interval '1 day', ${ago(100)} FROM generate_series(1, 3)`,
    );
    // Webhook events: 9 delivered 40 days ago (go, with their deliveries), 2 of 40 days with a
    // pending delivery (stay), 3 delivered yesterday (stay).
    const [endpoint] = await queryRows<{ id: number }>(
      db,
      sql`INSERT INTO webhook_endpoints (company_id, url, events, secret_encrypted) VALUES (${company.id}, 'https://hooks.example/x', ARRAY['user.created'], 'x') RETURNING id`,
    );
    const events = async (prefix: string, n: number, days: number, status: string) => {
      await db.execute(
        sql`INSERT INTO webhook_events (id, company_id, type, body, created_at)
            SELECT ${prefix} || g, ${company.id}, 'user.created', '{}', ${ago(days)} FROM generate_series(1, ${n}) g`,
      );
      await db.execute(
        sql`INSERT INTO webhook_deliveries (endpoint_id, event_id, status, created_at)
            SELECT ${endpoint.id}, ${prefix} || g, ${status}, ${ago(days)} FROM generate_series(1, ${n}) g`,
      );
    };
    await events('evt_old_', 9, 40, 'delivered');
    await events('evt_pending_', 2, 40, 'pending');
    await events('evt_new_', 3, 1, 'delivered');

    expect(await prune(db, DEFAULT_RETENTION, 4)).toEqual({ jobs: 14, webhook_events: 9 });
    const jobs = await queryRows<{ state: string; n: number }>(
      db,
      sql`SELECT CASE WHEN done_at IS NOT NULL THEN 'done' WHEN failed_at IS NOT NULL THEN 'failed' ELSE 'open' END AS state, count(*)::int AS n
          FROM jobs WHERE kind = 'prune.test' GROUP BY 1 ORDER BY 1`,
    );
    expect(jobs).toEqual([
      { state: 'done', n: 3 },
      { state: 'failed', n: 4 },
      { state: 'open', n: 3 },
    ]);
    const left = await queryRows<{ id: string; deliveries: number }>(
      db,
      sql`SELECT e.id, (SELECT count(*)::int FROM webhook_deliveries d WHERE d.event_id = e.id) AS deliveries
          FROM webhook_events e WHERE e.company_id = ${company.id} ORDER BY e.id`,
    );
    expect(left.map((row) => row.id)).toEqual(['evt_new_1', 'evt_new_2', 'evt_new_3', 'evt_pending_1', 'evt_pending_2']);
    expect(left.every((row) => row.deliveries === 1)).toBe(true);
    // Nothing left to prune: a second run deletes nothing.
    expect(await prune(db, DEFAULT_RETENTION, 4)).toEqual({ jobs: 0, webhook_events: 0 });
  });

  it('refuses a retention that is not a whole number of days (usage error, exit 2)', async () => {
    const errors: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => errors.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      expect(await main(['prune', '--jobs-days', '0'])).toBe(2);
      expect(await main(['prune', '--webhook-days', 'soon'])).toBe(2);
    } finally {
      process.stderr.write = write;
    }
    expect(errors.join('')).toContain('--jobs-days must be a whole number of days');
  });
});
