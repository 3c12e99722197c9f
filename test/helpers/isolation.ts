// The shared tenant-isolation check (architecture.md, "Tenant isolation"). A feature lists requests
// that name company B's resources while authenticated as company A; every one must be refused with
// 403 or 404 (never 2xx, never 500) and must change nothing in the database.
import { expect } from 'vitest';
import type { App } from '../../src/app.js';
import { type Executor, queryRows, sql } from '../../src/db/client.js';
import type { TestCompany } from './factories.js';

export interface IsolationRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  payload?: unknown;
  /** Extra headers (content-type for multipart, ...); the caller's authorization is added. */
  headers?: Record<string, string>;
  /** Allowed statuses; default [403, 404]. */
  expect?: number[];
}

/** Tables every check compares; pass more through `tables` (e.g. the feature's own). */
const DEFAULT_TABLES = ['companies', 'users', 'api_tokens', 'company_domains', 'user_types', 'roles', 'redirect_domains', 'outbox', 'jobs'];

/**
 * A fingerprint of the tables' contents: the row count and an md5 of every row's text, ordered.
 * Cheap on test-sized data, and it catches updates as well as inserts and deletes.
 */
export async function snapshotTables(db: Executor, tables: readonly string[]): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const table of tables) {
    if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`bad table name ${table}`);
    const [row] = await queryRows<{ n: number; digest: string | null }>(
      db,
      sql.raw(`SELECT count(*)::int AS n, md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest FROM ${table} t`),
    );
    result[table] = `${row.n}:${row.digest ?? ''}`;
  }
  return result;
}

/**
 * Sends each request as `attacker` and asserts that it is refused and that nothing changed.
 * `victim` is only used in the failure message; the requests carry the victim's ids themselves.
 */
export async function expectTenantIsolation(
  app: App,
  attacker: TestCompany,
  victim: TestCompany,
  requests: IsolationRequest[],
  options: { tables?: string[] } = {},
): Promise<void> {
  const tables = [...DEFAULT_TABLES, ...(options.tables ?? [])];
  const before = await snapshotTables(app.deps.db, tables);
  for (const request of requests) {
    const res = await app.inject({
      method: request.method,
      url: request.url,
      payload: request.payload as never,
      headers: { ...request.headers, ...attacker.auth },
    });
    const allowed = request.expect ?? [403, 404];
    expect(
      allowed,
      `${request.method} ${request.url} as company ${attacker.id} against company ${victim.id} answered ${res.statusCode}: ${res.body}`,
    ).toContain(res.statusCode);
    // The body must not carry the victim's data: no victim domain in a refusal.
    expect(res.body, `${request.method} ${request.url} leaked company ${victim.id}'s data`).not.toContain(victim.domain);
  }
  const after = await snapshotTables(app.deps.db, tables);
  expect(after, 'a refused cross-tenant request changed the database').toEqual(before);
}
