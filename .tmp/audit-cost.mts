// Scratch measurement (not committed): transactions of ONE company from 8 concurrent writers, each
// writing a row and (with audit) one audit event through recordAudit; then the sealer's cost.
import pg from 'pg';
import { openPostgres } from '/work/main/src/db/client.ts';
import { migrate } from '/work/main/src/db/migrate.ts';
import { recordAudit, sealAuditEvents } from '/work/main/src/platform/audit/index.ts';
import { sql } from 'drizzle-orm';
const base = 'postgres://postgres@127.0.0.1:5432/';
const name = `audit_cost_${Date.now()}`;
const admin = new pg.Client({ connectionString: `${base}postgres` });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const database = await openPostgres(`${base}${name}`, 10);
await migrate(database);
const db = database.db;
await db.execute(sql`INSERT INTO companies (name, code, domain) VALUES ('Cost Ltd', 'COST', 'cost.test')`).catch(async (e) => { console.error(e.message); });
const [{ id: companyId }] = (await db.execute(sql`SELECT id FROM companies LIMIT 1`)).rows as { id: number }[];
await db.execute(sql`CREATE TABLE scratch (id serial PRIMARY KEY, company_id int, v text)`);
async function run(withAudit: boolean, total: number, writers = 8) {
  let next = 0;
  const t = performance.now();
  await Promise.all(Array.from({ length: writers }, async () => {
    while (next++ < total) {
      await db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO scratch (company_id, v) VALUES (${companyId}, 'x')`);
        if (withAudit) await recordAudit(tx, [{ companyId, action: 'user.updated', target: { type: 'user', id: 1 }, changes: { base_salary: ['1.00', '2.00'] } }]);
      });
    }
  }));
  return total / ((performance.now() - t) / 1000);
}
for (let round = 0; round < 3; round++) {
  const off = await run(false, 2000);
  const on = await run(true, 2000);
  console.log(`round ${round}: without ${off.toFixed(0)}/s, with audit ${on.toFixed(0)}/s, ratio ${(on / off).toFixed(2)}`);
}
let t = performance.now();
const sealed = await sealAuditEvents(db);
console.log(`sealed ${sealed} events in ${Math.round(performance.now() - t)} ms`);
await db.transaction(async (tx) => recordAudit(tx, Array.from({ length: 10000 }, (_, i) => ({ companyId, action: 'user.created', target: { type: 'user', id: i } }))));
t = performance.now();
console.log(`sealed ${await sealAuditEvents(db)} (one 10,000-event batch) in ${Math.round(performance.now() - t)} ms`);
await database.close();
await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
await admin.end();
