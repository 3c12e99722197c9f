// What the process tests that break PostgreSQL under a running server share (docs/operations.md,
// "Failures"): cutting a database's connections, a bounded load of user creates and updates that
// tells which answers it got, and the invariants that must hold afterwards whatever was cut.
import crypto from 'node:crypto';
import pg from 'pg';
import { expect } from 'vitest';
import { type Executor, queryRows, sql } from '../../src/db/client.js';
import type { Api } from './run-fixture.js';
import { requestJson, type ServerProcess } from './server-process.js';

/**
 * pg_terminate_backend on every backend of database `datname` but the caller's; answers how many
 * were terminated and how many of those were inside a transaction.
 */
export async function terminateBackends(adminUrl: string, datname: string): Promise<{ all: number; inTransaction: number }> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // The CASE decides before pg_terminate_backend is called: a WHERE clause would leave the order
    // of its conditions to the planner, which could terminate backends of other databases first.
    const { rows } = await admin.query<{ all: number; in_transaction: number }>(
      `SELECT count(*) FILTER (WHERE cut)::int AS all, count(*) FILTER (WHERE cut AND in_transaction)::int AS in_transaction
       FROM (SELECT CASE WHEN datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'
                         THEN pg_terminate_backend(pid) ELSE false END AS cut,
                    xact_start IS NOT NULL AS in_transaction
             FROM pg_stat_activity OFFSET 0) backends`,
      [datname],
    );
    return { all: rows[0].all, inTransaction: rows[0].in_transaction };
  } finally {
    await admin.end();
  }
}

/** Runs `cut` every `everyMs` until `stop()` is called; answers the sum of what it reported. */
export function repeatedly(cut: () => Promise<{ all: number; inTransaction: number }>, everyMs: number) {
  const total = { all: 0, inTransaction: 0, rounds: 0 };
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const cutNow = await cut();
      total.all += cutNow.all;
      total.inTransaction += cutNow.inTransaction;
      total.rounds += 1;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return total;
    },
  };
}

/** The answers a load got, by status; `inProgress`: 409s for a key whose claim a 503 could not release. */
export interface LoadReport {
  statuses: Record<number, number>;
  bodies500: string[];
}

/**
 * `workers` clients, each creating a user (with an Idempotency-Key, retried with the same key after a
 * 503, as a client told "try again" would) and then updating it, until `done()` holds. Every answer
 * is counted; a 500 keeps its body for the failure message.
 */
export async function userLoad(api: Api, domain: string, done: () => boolean, workers = 4): Promise<LoadReport> {
  const report: LoadReport = { statuses: {}, bodies500: [] };
  const count = (status: number, body: unknown) => {
    report.statuses[status] = (report.statuses[status] ?? 0) + 1;
    if (status >= 500 && status !== 503) report.bodies500.push(JSON.stringify(body));
  };
  const tag = crypto.randomBytes(3).toString('hex');
  const worker = async (w: number) => {
    for (let i = 0; !done(); i++) {
      const key = `load-${tag}-${w}-${i}`;
      const body = {
        first_name: 'Load',
        last_name: `W${w}N${i}`,
        personal_email: `load.${tag}.${w}.${i}@personal.test`,
        domain_name: domain,
        user_types: 'Full-time',
        start_date: '2024-01-15',
      };
      let created: Awaited<ReturnType<Api>> | undefined;
      for (let attempt = 0; attempt < 50; attempt++) {
        created = await api('POST', '/api/users', body, { 'idempotency-key': key }).catch(() => undefined);
        if (!created) continue;
        count(created.status, created.body);
        if (created.status !== 503) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      if (created?.status !== 200) continue;
      const updated = await api('PUT', `/api/users/${created.body.user.id}`, { title: `Title ${i}` }).catch(() => undefined);
      if (updated) count(updated.status, updated.body);
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
  return report;
}

/** Statuses a client may see while PostgreSQL is cut: never a 500 (or any other 5xx than 503). */
export function expectNoServerErrors(report: LoadReport): void {
  expect(report.bodies500, 'answers other than 503 in the 5xx range').toEqual([]);
  // 409: a key whose 503 could not release its claim (the database was unreachable for the delete too).
  // 422: a create that committed although its answer was lost with the connection, retried.
  for (const status of Object.keys(report.statuses).map(Number)) expect([200, 409, 422, 503]).toContain(status);
}

/** The process is alive, /healthz answers 200 and the API answers a company's request again. */
export async function expectServing(server: ServerProcess, api: Api): Promise<void> {
  expect(server.child.exitCode, server.output()).toBeNull();
  expect((await requestJson(server.baseUrl, 'GET', '/healthz')).status).toBe(200);
  let status = 0;
  for (let i = 0; i < 100 && status !== 200; i++) {
    status = (await api('GET', '/api/users?per_page=1')).status;
    if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(status, server.output()).toBe(200);
}

/**
 * The money and identity invariants, as rows that break them (all empty when they hold): each paid
 * paystub has exactly one transfer, and it is paid; each transfer reached the sandbox provider once;
 * every wallet balance is the sum of its ledger; every failed transfer is refunded exactly once and
 * no refund lacks its failed transfer; no duplicate live user (e-mail, personal e-mail, employee id).
 */
export async function brokenInvariants(db: Executor): Promise<Record<string, unknown[]>> {
  const broken = {
    paidPaystubsWithoutOneTransfer: await queryRows(
      db,
      sql`SELECT p.id, count(t.reference) FILTER (WHERE t.status = 'paid')::int AS paid_transfers
          FROM paystubs p LEFT JOIN payroll_transfers t ON t.paystub_id = p.id
          WHERE p.status = 'paid' GROUP BY p.id HAVING count(t.reference) FILTER (WHERE t.status = 'paid') <> 1`,
    ),
    transfersSentTwice: await queryRows(db, sql`SELECT reference, requests FROM payroll_sandbox_transfers WHERE requests <> 1`),
    balancesOffTheLedger: await queryRows(
      db,
      sql`SELECT b.company_id, b.balance::text, coalesce(e.total, 0)::text AS ledger FROM wallet_balances b
          LEFT JOIN (SELECT company_id, sum(amount) AS total FROM wallet_entries GROUP BY company_id) e USING (company_id)
          WHERE b.balance <> coalesce(e.total, 0)`,
    ),
    failedTransfersNotRefundedOnce: await queryRows(
      db,
      sql`SELECT t.reference, count(e.id)::int AS refunds FROM payroll_transfers t
          LEFT JOIN wallet_entries e ON e.kind = 'payroll_refund' AND e.reference = t.reference
          WHERE t.status = 'failed' GROUP BY t.reference HAVING count(e.id) <> 1`,
    ),
    refundsWithoutFailedTransfer: await queryRows(
      db,
      sql`SELECT e.reference FROM wallet_entries e WHERE e.kind = 'payroll_refund'
          AND NOT EXISTS (SELECT 1 FROM payroll_transfers t WHERE t.reference = e.reference AND t.status = 'failed')`,
    ),
    duplicateUsers: await queryRows(
      db,
      sql`SELECT company_id, lower(email) AS email, count(*)::int AS n FROM users WHERE deleted_at IS NULL GROUP BY 1, 2 HAVING count(*) > 1
          UNION ALL
          SELECT company_id, lower(personal_email), count(*)::int FROM users WHERE deleted_at IS NULL GROUP BY 1, 2 HAVING count(*) > 1
          UNION ALL
          SELECT company_id, employee_id, count(*)::int FROM users WHERE deleted_at IS NULL GROUP BY 1, 2 HAVING count(*) > 1`,
    ),
    jobsFailedForGood: await queryRows(db, sql`SELECT id, kind, last_error FROM jobs WHERE failed_at IS NOT NULL`),
  };
  return Object.fromEntries(Object.entries(broken).filter(([, rows]) => rows.length > 0));
}

/** No job is held: every claim is finished or given back (polled: a job may be running right now). */
export async function expectNoJobStuck(db: Executor, timeoutMs = 30_000): Promise<void> {
  const held = () =>
    queryRows<{ id: number; kind: string }>(
      db,
      sql`SELECT id, kind FROM jobs WHERE locked_at IS NOT NULL AND done_at IS NULL AND failed_at IS NULL`,
    );
  const deadline = Date.now() + timeoutMs;
  let rows = await held();
  while (rows.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    rows = await held();
  }
  expect(rows).toEqual([]);
}
