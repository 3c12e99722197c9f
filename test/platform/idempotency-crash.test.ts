// Idempotency-Key after a crash (docs/decisions.md, "Idempotency-Key after a crash"), in process on
// a real database: the rows a killed server leaves behind are written directly (a claim of an
// instance that stopped beating; a change committed whose answer was never stored), then the
// retry goes through HTTP. The process tests (test/process/idempotency-crash.test.ts) kill real servers.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryRows, sql } from '../../src/db/client.js';
import { markIdempotentChange, runWithClaim } from '../../src/platform/idempotency-claims.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../helpers/factories.js';
import { as } from '../helpers/http.js';
import { fundWallet, runBody, setBankAccounts } from '../helpers/payroll-runs.js';
import { newUserBody } from '../helpers/users.js';
import { allowRedirectHosts } from '../helpers/wallet.js';

let ctx: TestContext;
let acme: TestCompany;
let approver: string;

const post = (url: string, payload: object, key: string, who = acme) =>
  as(ctx.app, who).post(url, payload, { headers: { 'idempotency-key': key } });

/** What the server hashes for a JSON POST (platform/idempotency.ts): method, URL and the body. */
const hashOf = (url: string, body: object) =>
  crypto
    .createHash('sha256')
    .update(`POST ${url}\n${JSON.stringify(body)}`)
    .digest('hex');

const claimOf = async (key: string) =>
  (
    await queryRows<{ committed_at: string | null; resource_kind: string | null; resource_id: string | null; status_code: number | null }>(
      ctx.db,
      sql`SELECT committed_at, resource_kind, resource_id, status_code FROM idempotency_keys WHERE company_id = ${acme.id} AND key = ${key}`,
    )
  )[0];

/** What a kill -9 between the commit and the stored answer leaves: the mark, no answer. */
const loseAnswer = (key: string) =>
  ctx.db.execute(sql`UPDATE idempotency_keys SET status_code = NULL, response_body = NULL WHERE company_id = ${acme.id} AND key = ${key}`);

const count = async (query: ReturnType<typeof sql>) => (await queryRows<{ n: number }>(ctx.db, query))[0].n;

beforeAll(async () => {
  ctx = await createTestApp({ sandboxTransferDelaySeconds: 0 });
  acme = await createCompany(ctx.db, { name: 'Acme Crash', runApproval: 'token' }); // the token approves
  const [boss] = await createUsers(ctx.db, acme.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
  approver = boss.email;
  await allowRedirectHosts(ctx.db, acme.id, ['funds.example']);
  const staff = await createUsers(ctx.db, acme.id, [{ baseSalary: '300000.00' }, { baseSalary: '400000.00' }]);
  await setBankAccounts(
    ctx.db,
    staff.map((u) => u.id),
  );
});
afterAll(() => ctx?.close());

describe('a claim whose server died', () => {
  it('is taken over at once when its owner stopped beating or is gone; a live owner still answers 409', async () => {
    const [{ id: live }] = await queryRows<{ id: string }>(ctx.db, sql`SELECT id FROM server_instances`);
    await ctx.db.execute(sql`INSERT INTO server_instances (id, last_seen) VALUES ('stale-1', now() - interval '20 seconds')`);
    const bodies = {
      stale: runBody({ pay_period_start: '2026-01-01', pay_period_end: '2026-01-31', payment_date: '2026-01-28' }),
      gone: runBody({ pay_period_start: '2026-02-01', pay_period_end: '2026-02-28', payment_date: '2026-02-26' }),
      live: runBody({ pay_period_start: '2026-04-01', pay_period_end: '2026-04-30', payment_date: '2026-04-28' }),
    };
    for (const [owner, body] of [
      ['stale-1', bodies.stale],
      ['never-seen', bodies.gone],
      [live, bodies.live],
    ] as const) {
      await ctx.db.execute(
        sql`INSERT INTO idempotency_keys (company_id, key, request_hash, owner, claim_token)
            VALUES (${acme.id}, ${`claim-${owner}`}, ${hashOf('/api/payroll-runs', body)}, ${owner}, 'old-token')`,
      );
    }
    const stale = await post('/api/payroll-runs', bodies.stale, 'claim-stale-1');
    expect(stale.statusCode, stale.body).toBe(201);
    expect(stale.headers['idempotent-replayed']).toBeUndefined();
    const gone = await post('/api/payroll-runs', bodies.gone, 'claim-never-seen');
    expect(gone.statusCode, gone.body).toBe(201);
    const busy = await post('/api/payroll-runs', bodies.live, `claim-${live}`);
    expect([busy.statusCode, busy.json()]).toEqual([409, { error: 'A request with this Idempotency-Key is still in progress.' }]);

    // The retries that took over were answered, and their answers are replayed like any other.
    const again = await post('/api/payroll-runs', bodies.stale, 'claim-stale-1');
    expect([again.statusCode, again.headers['idempotent-replayed'], again.json().run.id]).toEqual([201, 'true', stale.json().run.id]);
    expect(await count(sql`SELECT count(*)::int AS n FROM payroll_runs WHERE company_id = ${acme.id}`)).toBe(2);
  });

  it('lets a change commit only while its claim holds the key (a request taken over rolls back)', async () => {
    const key = 'fenced';
    await ctx.db.execute(
      sql`INSERT INTO idempotency_keys (company_id, key, request_hash, owner, claim_token) VALUES (${acme.id}, ${key}, 'h', 'x', 'new-token')`,
    );
    const stale = { companyId: acme.id, key, token: 'old-token', routeName: undefined };
    const attempt = new Promise((resolve, reject) =>
      runWithClaim(stale, () => {
        ctx.db
          .transaction(async (tx) => {
            await tx.execute(sql`UPDATE companies SET name = 'Changed' WHERE id = ${acme.id}`);
            await markIdempotentChange(tx, { kind: 'company', id: acme.id });
          })
          .then(resolve, reject);
      }),
    );
    await expect(attempt).rejects.toMatchObject({ message: 'A request with this Idempotency-Key is still in progress.' });
    expect(await count(sql`SELECT count(*)::int AS n FROM companies WHERE id = ${acme.id} AND name = 'Changed'`)).toBe(0);
    expect((await claimOf(key)).committed_at).toBeNull();
  });
});

describe('a change that committed but whose answer was lost', () => {
  it('U3: answers the created user again, creates no second one', async () => {
    const body = newUserBody(acme);
    const first = await post('/api/users', body, 'user-1');
    expect(first.statusCode, first.body).toBe(200);
    expect(await claimOf('user-1')).toMatchObject({ resource_kind: 'user', resource_id: String(first.json().user.id) });
    await loseAnswer('user-1');
    const retry = await post('/api/users', body, 'user-1');
    expect([retry.statusCode, retry.headers['idempotent-replayed']]).toEqual([200, 'true']);
    expect(retry.json()).toEqual(first.json());
    expect(await count(sql`SELECT count(*)::int AS n FROM users WHERE personal_email = ${body.personal_email as string}`)).toBe(1);
  });

  it('POST /api/payroll-runs and pay: the same run, nothing run twice, the answer stored for later retries', async () => {
    const created = await post('/api/payroll-runs', runBody(), 'run-1');
    expect(created.statusCode, created.body).toBe(201);
    const runId = created.json().run.id as string;
    expect(await claimOf('run-1')).toMatchObject({ resource_kind: 'payroll-run', resource_id: runId });
    await loseAnswer('run-1');
    const retry = await post('/api/payroll-runs', runBody(), 'run-1');
    expect([retry.statusCode, retry.headers['idempotent-replayed']]).toEqual([201, 'true']);
    expect(retry.json()).toEqual(created.json());
    expect(
      await count(sql`SELECT count(*)::int AS n FROM payroll_runs WHERE company_id = ${acme.id} AND pay_period_start = '2026-03-01'`),
    ).toBe(1);
    expect((await claimOf('run-1')).status_code).toBe(201);

    const approved = await post(`/api/payroll-runs/${runId}/approve`, { approver_email: approver }, 'approve-1');
    expect(approved.statusCode, approved.body).toBe(200);
    await fundWallet(ctx.app, ctx.db, acme, 2_000_000);
    const paid = await post(`/api/payroll-runs/${runId}/pay`, {}, 'pay-1');
    expect(paid.statusCode, paid.body).toBe(202);
    await loseAnswer('pay-1');
    const payAgain = await post(`/api/payroll-runs/${runId}/pay`, {}, 'pay-1');
    expect([payAgain.statusCode, payAgain.headers['idempotent-replayed']]).toEqual([202, 'true']);
    expect(payAgain.json()).toMatchObject({ message: 'Payment started.', run: { id: runId } });
    expect(await count(sql`SELECT count(*)::int AS n FROM wallet_entries WHERE company_id = ${acme.id} AND kind = 'payroll_debit'`)).toBe(
      1,
    );
  });

  it('a route that cannot rebuild its answer says the request was carried out and names what it made (W1)', async () => {
    const body = { amount: 5000, customer_email: 'finance@funds.example', redirect_url: 'https://funds.example/done' };
    const first = await post('/api/wallet/top-up', body, 'top-up-1');
    expect(first.statusCode, first.body).toBe(200);
    await loseAnswer('top-up-1');
    const retry = await post('/api/wallet/top-up', body, 'top-up-1');
    expect(retry.statusCode).toBe(409);
    expect(retry.json()).toEqual({
      status: 'error',
      message: `A request with this Idempotency-Key was already carried out (wallet-transaction ${first.json().transactionReference}); its answer was lost when the server stopped.`,
    });
    expect(await count(sql`SELECT count(*)::int AS n FROM wallet_transactions WHERE company_id = ${acme.id} AND amount = 5000`)).toBe(1);
  });
});

describe('a claim whose request failed because the database went away', () => {
  it('is released once the database answers again, so the same key is served without the 300 s wait', async () => {
    const body = newUserBody(acme, { first_name: 'Lost', last_name: 'Connection' });
    const db = ctx.db as unknown as Record<string, unknown>;
    const lost = () => Promise.reject(new Error('Connection terminated unexpectedly'));
    // The create's transaction and then the release of its claim both meet a lost connection; the
    // claim (written before) stays, held by this live server.
    const deleteFrom = (db.delete as (table: unknown) => unknown).bind(ctx.db);
    let deletes = 0;
    db.transaction = lost;
    // The claim's own first statement (expired keys) passes; the release after the 503 does not.
    db.delete = (table: unknown) => (++deletes === 1 ? deleteFrom(table) : { where: lost });
    let refused: Awaited<ReturnType<typeof post>>;
    try {
      refused = await post('/api/users', body, 'lost-1');
    } finally {
      delete db.transaction;
      delete db.delete;
    }
    expect([refused.statusCode, refused.json()]).toEqual([503, { error: 'The database is unavailable; try again.' }]);
    expect(await claimOf('lost-1')).toMatchObject({ committed_at: null, status_code: null });
    // Released with the next heartbeat (5 s), well before the stuck-claim rule (300 s). Up to 20 s:
    // on a loaded 2-core machine a 5 s timer has come more than 10 s late.
    let retry = await post('/api/users', body, 'lost-1');
    for (let i = 0; i < 80 && retry.statusCode === 409; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      retry = await post('/api/users', body, 'lost-1');
    }
    expect(retry.statusCode, retry.body).toBe(200);
    expect(await count(sql`SELECT count(*)::int AS n FROM users WHERE company_id = ${acme.id} AND last_name = 'Connection'`)).toBe(1);
  });

  it('a failed purge of expired keys (one claim in about 100) neither fails the request nor leaves its claim held', async () => {
    const body = newUserBody(acme, { first_name: 'Purge', last_name: 'Failed' });
    const db = ctx.db as unknown as Record<string, unknown>;
    const deleteFrom = (db.delete as (table: unknown) => unknown).bind(ctx.db);
    let deletes = 0;
    // The claim's first delete (this key, if expired) passes; the purge after the insert is lost.
    db.delete = (table: unknown) =>
      ++deletes === 2 ? { where: () => Promise.reject(new Error('Connection terminated unexpectedly')) } : deleteFrom(table);
    const random = vi.spyOn(Math, 'random').mockReturnValue(0);
    let created: Awaited<ReturnType<typeof post>>;
    try {
      created = await post('/api/users', body, 'purge-1');
    } finally {
      random.mockRestore();
      delete db.delete;
    }
    expect(deletes).toBeGreaterThanOrEqual(2);
    expect(created.statusCode, created.body).toBe(200);
    expect(await claimOf('purge-1')).toMatchObject({ status_code: 200 });
    const replayed = await post('/api/users', body, 'purge-1');
    expect([replayed.statusCode, replayed.headers['idempotent-replayed']]).toEqual([200, 'true']);
    expect(await count(sql`SELECT count(*)::int AS n FROM users WHERE company_id = ${acme.id} AND last_name = 'Failed'`)).toBe(1);
  });
});
