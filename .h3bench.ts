import { sql } from 'drizzle-orm';
import { openPostgres, queryRows } from '/work/wt/h3/src/db/client.ts';
import { migrate } from '/work/wt/h3/src/db/migrate.ts';
import { recordAudit } from '/work/wt/h3/src/platform/audit/index.ts';
import { createAuditService } from '/work/wt/h3/src/modules/audit/index.ts';

const database = await openPostgres('postgres://postgres@127.0.0.1:5432/h3_audit_bench', 10);
await migrate(database);
const db = database.db;
const [c] = await queryRows<{ id: number }>(db, sql`INSERT INTO companies (name, domain, code) VALUES ('B', ${`b${Date.now()}.test`}, ${`B${Date.now()}`}) RETURNING id`);
const company = c.id;
const ev = (i: number) => ({ companyId: company, action: i % 3 ? 'user.updated' : 'payroll_run.approved', target: { type: i % 3 ? 'user' : 'payroll_run', id: i % 5000 }, changes: { base_salary: ['1', '2'] } });
// 1. batch insert cost
let t = performance.now();
await db.transaction((tx) => recordAudit(tx, Array.from({ length: 10000 }, (_, i) => ev(i))));
console.log('10,000 events in one INSERT (ms):', Math.round(performance.now() - t));
// 2. single-event transactions, 8 concurrent writers, same company
for (const chain of [true]) {
  t = performance.now();
  let n = 0;
  await Promise.all(Array.from({ length: 8 }, async () => { for (let k = 0; k < 250; k++) { await db.transaction(async (tx) => { await tx.execute(sql`SELECT 1`); await recordAudit(tx, [ev(k)]); }); n++; } }));
  console.log('2,000 one-event transactions, 8 writers, one company (events/s):', Math.round(n / ((performance.now() - t) / 1000)));
}
t = performance.now();
let m = 0;
await Promise.all(Array.from({ length: 8 }, async () => { for (let k = 0; k < 250; k++) { await db.transaction(async (tx) => { await tx.execute(sql`SELECT 1`); }); m++; } }));
console.log('2,000 empty transactions, 8 writers (tx/s):', Math.round(m / ((performance.now() - t) / 1000)));
if (process.env.MILLION) {
  t = performance.now();
  for (let b = 0; b < 98; b++) await db.transaction((tx) => recordAudit(tx, Array.from({ length: 10000 }, (_, i) => ev(i + b))));
  console.log('~1M events inserted (s):', Math.round((performance.now() - t) / 1000));
  await db.execute(sql`ANALYZE audit_events`);
  const svc = createAuditService({ db });
  for (const [label, q] of [['action=user.updated', { action: 'user.updated' }], ['action=payroll_run.*', { action: 'payroll_run.*' }], ['target user 41', { target_type: 'user', target_id: '41' }], ['actor token', { actor_type: 'system' }], ['from/to one day', { from: new Date().toISOString().slice(0, 10), to: new Date().toISOString().slice(0, 10) }], ['no filter page 2', {}]] as const) {
    const times: number[] = [];
    for (let i = 0; i < 200; i++) { const s = performance.now(); await svc.list(company, { ...q, limit: 50 } as never); times.push(performance.now() - s); }
    times.sort((a, b) => a - b);
    console.log(`GET filtered page ${label}: p50 ${times[100].toFixed(1)} ms, p99 ${times[197].toFixed(1)} ms`);
  }
  t = performance.now();
  const report = await svc.verify(company);
  console.log('verify of', report.events, 'events (s):', ((performance.now() - t) / 1000).toFixed(1), report.ok);
}
await database.close();
