// One U8 upload (POST /api/users/bulk-create, multipart) timed end to end; any failed row or
// non-200 answer stops the bench. Shared by the scenarios that import (users-bulk, audit-cost,
// webhooks-api-impact, growth), with the file they upload.
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

const HEADER =
  'first_name,last_name,personal_email,domain,user_types,title,base_salary,department,allowances,office_location,start_date (YYYY-MM-DD),manager,bank_name,account_number';

/** A CSV of `rows` new employees in the import template layout; `tag` keeps personal e-mails unique across files. */
export function importCsv(domain: string, tag: string, rows: number): string {
  const lines = ['Instructions: start_date must use the format YYYY-MM-DD', HEADER];
  for (let i = 0; i < rows; i++) {
    // Varied names, as in a real file: some clash (same first and last name) and need a suffix.
    lines.push(
      `Emp${i % 997},Staff${i % 1009},bench.${tag}.${i}@personal.test,${domain},Full-time,Engineer,250000.00,Engineering,15000.50,Lagos,2024-02-01,,Bank,00${String(10_000_000 + i)}`,
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
