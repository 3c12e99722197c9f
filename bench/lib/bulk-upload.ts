// One U8 upload (POST /api/users/bulk-create, multipart) timed end to end; any failed row or
// non-200 answer stops the bench. Shared by the scenarios that import (users-bulk, audit-cost,
// webhooks-api-impact).
import type { BenchContext } from '../scenario.js';

/** Seconds the upload took. */
export async function timedBulkCreate(ctx: BenchContext, token: string, csvText: string, query = ''): Promise<number> {
  const body = new FormData();
  body.append('users_csv', new Blob([csvText], { type: 'text/csv' }), 'users.csv');
  const started = performance.now();
  const res = await fetch(`${ctx.baseUrl}/api/users/bulk-create${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body,
  });
  const json = (await res.json()) as { failures?: unknown[] };
  const seconds = (performance.now() - started) / 1000;
  if (res.status !== 200 || json.failures?.length)
    throw new Error(`bulk create failed: ${res.status} ${JSON.stringify(json).slice(0, 500)}`);
  return seconds;
}
