// The audit log's read figure (docs/audit.md, "Cost"): one company with 1,000,000 events in a
// scratch PostgreSQL database, sealed, then 200 pages of 50 through the service per filter, p50 and
// p99. Not a bench scenario: seeding and sealing take ~50 s, too long for CI's smoke run.
// Run: npx tsx bench/audit-read.ts (PostgreSQL on 127.0.0.1:5432, user postgres).

import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openPostgres, queryRows } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { createAuditService } from '../src/modules/audit/index.js';

const base = 'postgres://postgres@127.0.0.1:5432/';
const name = `audit_read_${Date.now()}`;
const admin = new pg.Client({ connectionString: `${base}postgres` });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const database = await openPostgres(`${base}${name}`, 4);
await migrate(database);
const db = database.db;
await db.execute(sql`INSERT INTO companies (name, code, domain) VALUES ('Big', 'BIG', 'big.test'), ('Other', 'OTH', 'other.test')`);
let t = performance.now();
const actions = ['user.updated', 'user.created', 'payroll_run.approved', 'wallet.credited', 'token.issued'];
for (let batch = 0; batch < 10; batch++) {
  await db.execute(sql`INSERT INTO audit_events (company_id, actor_type, actor_id, action, target_type, target_id, changes)
    SELECT 1, CASE WHEN g % 3 = 0 THEN 'console_user' ELSE 'token' END, (g % 7)::text, (${`{${actions.join(',')}}`}::text[])[1 + g % 5], 'user', (g % 5000)::text, '{"base_salary": ["1.00", "2.00"]}'::jsonb
    FROM generate_series(1, 100000) g`);
}
console.log('seeded 1,000,000 events in', Math.round(performance.now() - t), 'ms');
t = performance.now();
const sealed = (await queryRows<{ n: number }>(db, sql`SELECT audit_seal() AS n`))[0].n;
console.log('sealed', sealed, 'in', Math.round(performance.now() - t), 'ms');
await db.execute(sql`ANALYZE audit_events`);
await db.execute(sql`ANALYZE audit_seals`);
const service = createAuditService({ db });
const queries = [
  { action: 'user.updated' },
  { action: 'user.*', actor_type: 'console_user' },
  { target_type: 'user', target_id: '42' },
  { actor_type: 'token', actor_id: '3' },
  {},
  { from: '2000-01-01', action: 'wallet.credited' },
];
for (const q of queries) {
  const times: number[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 200; i++) {
    const s = performance.now();
    const page = await service.list(1, { ...q, limit: 50, cursor });
    times.push(performance.now() - s);
    cursor = i % 10 === 9 ? undefined : (page.next_cursor ?? undefined);
  }
  times.sort((a, b) => a - b);
  console.log(JSON.stringify(q), 'p50', times[100].toFixed(2), 'p99', times[197].toFixed(2), 'ms');
}
await database.close();
await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
await admin.end();
