// Uploads against a real listening server process: what a client on the network can make the
// server spend. A pathological CSV header must not block the event loop (measured by /healthz
// latency while it is parsed), and parallel oversize document uploads must not grow the process
// (resident memory read from /proc while they run).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migratedDataDir } from '../helpers/database.js';
import { multipart } from '../helpers/users.js';
import { killAllAndRemove, type ServerProcess, startServerProcess } from './server-process.js';

const START_MS = 150_000;
const ADMIN_TOKEN = `admin-${crypto.randomBytes(12).toString('hex')}`;
const MiB = 1024 * 1024;

let server: ServerProcess;
let auth: Record<string, string>;
let userId: number;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-uploads-'));

beforeAll(async () => {
  // Already migrated: the first start is not what this file tests.
  await migratedDataDir(dataDir);
  server = await startServerProcess({
    DATA_DIR: dataDir,
    ADMIN_TOKEN,
    SEED_DEMO: 'false',
    RATE_LIMIT_SENSITIVE: '1000',
    RATE_LIMIT_STANDARD: '1000',
  });
  await server.waitReady({ timeoutMs: START_MS });
  const domain = `uploads-${crypto.randomBytes(4).toString('hex')}.test`;
  const created = await fetch(`${server.baseUrl}/admin/companies`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Uploads Ltd', domain }),
  });
  expect(created.status).toBe(201);
  auth = { authorization: `Bearer ${((await created.json()) as { token: string }).token}` };
  const user = await fetch(`${server.baseUrl}/api/users`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      first_name: 'Ada',
      last_name: 'Obi',
      personal_email: 'ada@personal.test',
      domain_name: domain,
      user_types: 'Full-time',
      start_date: '2024-01-15',
    }),
  });
  expect(user.status).toBe(200);
  userId = ((await user.json()) as { user: { id: number } }).user.id;
}, START_MS + 20_000);

afterAll(async () => {
  await killAllAndRemove([dataDir]);
});

/** Polls /healthz every 20 ms until `stop` settles; resolves with the slowest answer in ms. */
async function slowestHealthz(stop: Promise<unknown>): Promise<number> {
  let done = false;
  const finish = () => {
    done = true;
  };
  stop.then(finish, finish);
  let slowest = 0;
  while (!done) {
    const started = performance.now();
    await (await fetch(`${server.baseUrl}/healthz`)).arrayBuffer();
    slowest = Math.max(slowest, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return slowest;
}

const rssBytes = () => {
  const line = fs.readFileSync(`/proc/${server.pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return Number((line as RegExpMatchArray)[1]) * 1024;
};

describe('CSV headers (U8)', () => {
  test('a 5 MiB first line of "(" answers 422 within 1 s while /healthz stays fast', async () => {
    const csv = Buffer.alloc(5 * MiB - 4096, '(');
    const form = multipart({}, [{ field: 'users_csv', filename: 'users.csv', contentType: 'text/csv', data: csv }]);
    const started = performance.now();
    // Without the fix the server is stuck for hours: the abort turns that into a failed test.
    const upload = fetch(`${server.baseUrl}/api/users/bulk-create`, {
      method: 'POST',
      headers: { ...auth, ...form.headers },
      body: form.payload,
      signal: AbortSignal.timeout(10_000),
    });
    const [response, slowest] = await Promise.all([upload, slowestHealthz(upload)]);
    const elapsed = performance.now() - started;
    expect(response.status).toBe(422);
    expect(((await response.json()) as { errors: Record<string, string[]> }).errors.users_csv).toHaveLength(1);
    expect(elapsed).toBeLessThan(1_000);
    expect(slowest).toBeLessThan(250);
  });
});

describe('documents (U4): parallel oversize uploads', () => {
  /** 20 PDFs of just under 5 MiB: the old limits (20 files of 5 MiB) accepted and buffered all of it. */
  const FILES = 20;
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(5 * MiB - 1024, 'x')]);

  /** The same form, streamed without Content-Length (chunked): only the part limits can stop it. */
  async function* chunkedForm(boundary: string) {
    for (let i = 0; i < FILES; i++) {
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="documents"; filename="d${i}.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      );
      for (let at = 0; at < pdf.length; at += MiB) yield pdf.subarray(at, at + MiB);
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }

  test('six parallel 100 MB uploads, with and without Content-Length, are refused and RSS grows < 100 MB', async () => {
    const form = multipart(
      {},
      Array.from({ length: FILES }, (_, i) => ({ field: 'documents', filename: `d${i}.pdf`, contentType: 'application/pdf', data: pdf })),
    );
    expect(form.payload.length).toBeGreaterThan(100_000_000);
    const url = `${server.baseUrl}/api/users/${userId}`;
    // Warm up the route (first-call compilation is not what is measured).
    const small = multipart({}, [{ field: 'documents', filename: 'a.pdf', contentType: 'application/pdf', data: pdf.subarray(0, 1024) }]);
    expect((await fetch(url, { method: 'PUT', headers: { ...auth, ...small.headers }, body: small.payload })).status).toBe(200);

    const before = rssBytes();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssBytes());
    }, 25);
    const boundary = `----chunked${crypto.randomBytes(8).toString('hex')}`;
    const uploads = Array.from({ length: 6 }, (_, i) =>
      i % 2 === 0
        ? fetch(url, { method: 'PUT', headers: { ...auth, ...form.headers }, body: form.payload })
        : fetch(url, {
            method: 'PUT',
            headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
            body: chunkedForm(boundary) as unknown as BodyInit,
            duplex: 'half',
          } as RequestInit),
    );
    const responses = await Promise.all(uploads.map((upload) => upload.catch((error: Error) => error)));
    clearInterval(sampler);
    peak = Math.max(peak, rssBytes());

    for (const response of responses) {
      // A server that refuses early may close the connection while a chunked body is still being sent.
      if (response instanceof Error) continue;
      expect(response.status).toBe(422);
      expect(Object.keys(((await response.json()) as { error: Record<string, string[]> }).error)).toEqual(['documents']);
    }
    expect(responses.filter((response) => !(response instanceof Error)).length).toBeGreaterThanOrEqual(3);
    expect(peak - before).toBeLessThan(100 * MiB);
    // Nothing of the refused uploads stays on disk: the one warm-up document and no temporary files.
    expect(fs.readdirSync(path.join(dataDir, 'documents'), { recursive: true }).filter((p) => String(p).endsWith('.pdf'))).toHaveLength(1);
    expect(fs.readdirSync(path.join(dataDir, 'uploads'))).toEqual([]);
  });
});
