// Wallet: W1 success, sandbox checkout, verification job, W2, balance and ledger, restarts and
// unexpected failures. Validation and W2 errors are in wallet.errors.test.ts.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../../test/helpers/factories.js';
import { anonymous, as } from '../../../test/helpers/http.js';
import {
  ledgerFor,
  makeVerifyJobsDue,
  transactionRow,
  VALID_TOP_UP,
  verifyJobsFor,
  WALLET_MESSAGES,
  walletCompanies,
} from '../../../test/helpers/wallet.js';
import { queryRows } from '../../db/client.js';

let ctx: TestContext;
let acme: TestCompany;
let other: TestCompany;

const { COMPANY_404, WALLET_403 } = WALLET_MESSAGES;
const valid = VALID_TOP_UP;

beforeAll(async () => {
  ctx = await createTestApp({ paymentProvider: 'sandbox', walletVerifyDelaySeconds: 120 });
  ({ acme, other } = await walletCompanies(ctx.db));
});
afterAll(() => ctx.close());

const topUp = (company: TestCompany, body: unknown, query = '') => as(ctx.app, company).post(`/api/wallet/top-up${query}`, body);
const status = (company: TestCompany, query: string, path = '/api/wallet/transaction/status') =>
  as(ctx.app, company).get(`${path}?${query}`);
const balance = async (company: TestCompany) => (await as(ctx.app, company).get('/api/wallet/balance')).json();
/** The sandbox checkout page, which its link's secret opens without a token. */
const visitor = () => as(ctx.app, anonymous);
const FORM = { headers: { 'content-type': 'application/x-www-form-urlencoded' } };

/** The checkout link W1 handed out (path and secret), or a bare reference path when there is none. */
async function checkoutPath(reference: string): Promise<string> {
  const url = (await transactionRow(ctx.db, reference))?.checkout_url;
  return url ? new URL(url).pathname + new URL(url).search : `/sandbox/checkout/${reference}`;
}

async function pay(reference: string, outcome: 'success' | 'failed') {
  return visitor().post(await checkoutPath(reference), `outcome=${outcome}`, FORM);
}

describe('W1 success, sandbox checkout, verification job, W2 and balance', () => {
  it('creates a pending transaction with a unique reference, the sandbox checkout URL and a job at the delay', async () => {
    const started = Date.now();
    const [a, b] = await Promise.all([topUp(acme, valid), topUp(acme, { ...valid, amount: '250000' })]);
    expect(a.statusCode).toBe(200);
    const body = a.json();
    expect(Object.keys(body).sort()).toEqual(['checkoutUrl', 'status', 'transactionReference']);
    expect(body.status).toBe('success');
    expect(body.transactionReference).toMatch(/^WT-[0-9A-F]{24}$/);
    expect(body.checkoutUrl).toMatch(
      new RegExp(`^http://payroll\\.test/sandbox/checkout/${body.transactionReference}\\?secret=[A-Za-z0-9_-]{32}$`),
    );
    expect(b.json().transactionReference).not.toBe(body.transactionReference);
    const row = await transactionRow(ctx.db, body.transactionReference);
    expect(row).toMatchObject({ status: 'pending', amount: '1500.50', checkout_url: body.checkoutUrl });
    const [job] = await verifyJobsFor(ctx.db, body.transactionReference);
    const delay = (new Date(job.run_at).getTime() - started) / 1000;
    expect(delay).toBeGreaterThan(110);
    expect(delay).toBeLessThan(130);
    // Not due yet: running jobs now changes nothing.
    await ctx.app.deps.jobs.runDue();
    expect((await transactionRow(ctx.db, body.transactionReference)).status).toBe('pending');
  });

  it('pays through the sandbox page, credits once, and W2 answers on both paths', async () => {
    const company = await createCompany(ctx.db, { redirectDomains: ['pay.example'] });
    const res = await topUp(company, { ...valid, amount: 2500.75, redirect_url: 'https://pay.example/done?order=7' });
    const { transactionReference: ref } = res.json();

    const page = await visitor().get(await checkoutPath(ref));
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<html lang="en">');
    expect(page.body).toContain('value="success"');
    expect(page.body).toContain('value="failed"');
    expect(page.body).toContain('₦2,500.75');

    let w2 = await status(company, `transaction_reference=${ref}`);
    expect(w2.json().transaction_status).toBe('pending');

    const paid = await pay(ref, 'success');
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`https://pay.example/done?order=7&reference=${ref}`);
    // The sandbox settles as soon as the checkout is paid (no verification delay, unlike Paystack).
    expect((await status(company, `transaction_reference=${ref}`)).json().transaction_status).toBe('success');
    // A second click (even Cancel) changes nothing and still redirects.
    expect((await pay(ref, 'failed')).statusCode).toBe(303);
    expect((await status(company, `transaction_reference=${ref}`)).json().transaction_status).toBe('success');

    await makeVerifyJobsDue(ctx.db);
    await ctx.app.deps.jobs.runDue(100);
    for (const path of ['/api/wallet/transaction/status', '/api/wallet/check-transaction-status']) {
      w2 = await status(company, `transaction_reference=${ref}`, path);
      expect(w2.statusCode).toBe(200);
      const json = w2.json();
      expect(json.status).toBe('success');
      expect(json.transaction_status).toBe('success');
      expect(json.transaction).toMatchObject({
        transaction_reference: ref,
        amount: 2500.75,
        status: 'success',
        type: 'top_up',
        currency: 'NGN',
      });
      expect(json.transaction.completed_at).toMatch(/Z$/);
      // Marked as sandbox money: nobody paid it.
      expect(json.transaction.sandbox).toBe(true);
    }
    expect(await balance(company)).toEqual({ status: 'success', balance: 2500.75, currency: 'NGN', sandbox_balance: 2500.75 });

    // Verification again (a duplicate job) never credits twice.
    await ctx.app.deps.jobs.enqueue(ctx.db, 'wallet.verify', { reference: ref });
    await ctx.app.deps.jobs.runDue(100);
    expect(await ledgerFor(ctx.db, company.id)).toEqual([{ amount: '2500.75', kind: 'top_up', transaction_reference: ref }]);

    // The page of a settled payment says so and offers the way back.
    const closed = await visitor().get(await checkoutPath(ref));
    expect(closed.body).toContain('already paid');
    expect(closed.body).not.toContain('value="success"');
  });

  it('Cancel fails the top-up without a credit', async () => {
    const company = await createCompany(ctx.db, { redirectDomains: ['pay.example'] });
    const { transactionReference: ref } = (await topUp(company, { ...valid, redirect_url: 'https://pay.example/' })).json();
    expect((await pay(ref, 'failed')).headers.location).toBe(`https://pay.example/?reference=${ref}`);
    await makeVerifyJobsDue(ctx.db);
    await ctx.app.deps.jobs.runDue(100);
    const json = (await status(company, `transaction_reference=${ref}`)).json();
    expect(json.transaction_status).toBe('failed');
    expect(json.transaction.failure_reason).toBe('payment_failed');
    expect(await balance(company)).toEqual({ status: 'success', balance: 0, currency: 'NGN', sandbox_balance: 0 });
  });

  it('keeps asking with backoff while the provider says pending, and fails after 24 h', async () => {
    const company = await createCompany(ctx.db, { redirectDomains: ['pay.example'] });
    const { transactionReference: ref } = (await topUp(company, { ...valid, redirect_url: 'https://pay.example/' })).json();
    const gaps: number[] = [];
    for (let i = 0; i < 3; i++) {
      await makeVerifyJobsDue(ctx.db);
      const before = Date.now();
      await ctx.app.deps.jobs.runDue(100);
      const [job] = await verifyJobsFor(ctx.db, ref);
      expect(job.done_at).toBeNull();
      gaps.push(Math.round((new Date(job.run_at).getTime() - before) / 1000));
    }
    expect(gaps[0]).toBeGreaterThanOrEqual(59);
    expect(gaps[1]).toBeGreaterThan(gaps[0]);
    expect(gaps[2]).toBeGreaterThan(gaps[1]);
    expect((await transactionRow(ctx.db, ref)).verify_attempts).toBe(3);

    await ctx.db.execute(sql`UPDATE wallet_transactions SET created_at = now() - interval '25 hours' WHERE reference = ${ref}`);
    await makeVerifyJobsDue(ctx.db);
    await ctx.app.deps.jobs.runDue(100);
    expect(await transactionRow(ctx.db, ref)).toMatchObject({ status: 'failed', failure_reason: 'expired' });
    const [job] = await verifyJobsFor(ctx.db, ref);
    expect(job.done_at).not.toBeNull();
    // A late click on the page no longer records anything.
    await pay(ref, 'success');
    expect((await transactionRow(ctx.db, ref)).status).toBe('failed');
  });

  it('finishes a malformed verification job without retrying it', async () => {
    // Malformed on purpose, past the catalog's types, as a row written by hand or an older version would be.
    const id = await ctx.app.deps.jobs.enqueue(ctx.db, 'wallet.verify', { nope: true } as unknown as { reference: string });
    await ctx.app.deps.jobs.runDue(100);
    const [job] = await queryRows<{ done_at: Date | null }>(ctx.db, sql`SELECT done_at FROM jobs WHERE id = ${id}`);
    expect(job.done_at).not.toBeNull();
  });

  it('the reference alone opens nothing: the page and the POST need the link’s secret (a wrong one is a 404)', async () => {
    const company = await createCompany(ctx.db, { redirectDomains: ['pay.example'] });
    const { transactionReference: ref, checkoutUrl } = (await topUp(company, { ...valid, redirect_url: 'https://pay.example/' })).json();
    const secret = new URL(checkoutUrl).searchParams.get('secret') as string;
    const forged = [
      `/sandbox/checkout/${ref}`,
      `/sandbox/checkout/${ref}?secret=`,
      // A forged secret: the last character changed (to one it is not, whatever the real one ends with).
      `/sandbox/checkout/${ref}?secret=${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`,
    ];
    for (const url of forged) {
      expect((await visitor().get(url)).statusCode, url).toBe(404);
      const post = await visitor().post(url, 'outcome=success', FORM);
      expect(post.statusCode, url).toBe(404);
      expect(post.body).toContain('This checkout link is not valid.');
    }
    // Another top-up's secret does not open this one.
    const { checkoutUrl: otherUrl } = (await topUp(company, { ...valid, redirect_url: 'https://pay.example/' })).json();
    const borrowed = `/sandbox/checkout/${ref}${new URL(otherUrl).search}`;
    expect((await visitor().get(borrowed)).statusCode).toBe(404);
    await makeVerifyJobsDue(ctx.db);
    await ctx.app.deps.jobs.runDue(100);
    expect(await transactionRow(ctx.db, ref)).toMatchObject({ status: 'pending' });
    expect(await balance(company)).toMatchObject({ balance: 0 });
    // The link as handed out works.
    expect((await pay(ref, 'success')).statusCode).toBe(303);
  });

  it('sandbox page: unknown reference 404, invalid outcome 400', async () => {
    expect((await visitor().get('/sandbox/checkout/WT-NOPE')).statusCode).toBe(404);
    expect((await visitor().get('/sandbox/checkout/WT%00X')).statusCode).toBe(404);
    // Fastify refuses over-long path parameters itself (414); never a 500.
    expect((await visitor().get(`/sandbox/checkout/${'A'.repeat(500)}`)).statusCode).toBe(414);
    expect((await pay('WT-NOPE', 'success')).statusCode).toBe(404);
    const { transactionReference: ref } = (await topUp(acme, valid)).json();
    const bad = await visitor().post(await checkoutPath(ref), 'outcome=maybe', FORM);
    expect(bad.statusCode).toBe(400);
    expect((await transactionRow(ctx.db, ref)).status).toBe('pending');
  });
});

describe('W1 with an Idempotency-Key, and the OpenAPI document', () => {
  it('replays the first response and creates one transaction for a retried request', async () => {
    const company = await createCompany(ctx.db, { redirectDomains: ['pay.example'] });
    const request = () =>
      as(ctx.app, company).post(
        '/api/wallet/top-up',
        { ...valid, redirect_url: 'https://pay.example/' },
        { headers: { 'idempotency-key': 'k-1' } },
      );
    const first = await request();
    const second = await request();
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    const rows = await queryRows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM wallet_transactions WHERE company_id = ${company.id}`,
    );
    expect(rows[0].n).toBe(1);
  });

  it('documents W1, both W2 paths and the balance, and hides the sandbox and webhook routes', async () => {
    const doc = (await as(ctx.app, anonymous).get('/openapi.json')).json();
    for (const path of [
      '/api/wallet/top-up',
      '/api/wallet/transaction/status',
      '/api/wallet/check-transaction-status',
      '/api/wallet/balance',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    expect(Object.keys(doc.paths).some((path) => path.startsWith('/sandbox') || path.startsWith('/webhooks'))).toBe(false);
  });
});

describe('balance and ledger', () => {
  it('answers the balance of the target company, 403/404 like W1', async () => {
    expect(await balance(other)).toEqual({ status: 'success', balance: 0, currency: 'NGN', sandbox_balance: 0 });
    let res = await as(ctx.app, acme).get(`/api/wallet/balance?company_id=${other.id}`);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ status: 'error', message: WALLET_403 });
    res = await as(ctx.app, acme).get('/api/wallet/balance?company_id=999999');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 'error', message: COMPANY_404 });
  });

  it('sums decimals exactly and refuses updates and deletes of ledger entries', async () => {
    const company = await createCompany(ctx.db, { redirectDomains: ['pay.example'] });
    for (const amount of [100.1, 100.2, 99_999_999.99]) {
      const { transactionReference: ref } = (await topUp(company, { ...valid, amount, redirect_url: 'https://pay.example/' })).json();
      await pay(ref, 'success');
    }
    await makeVerifyJobsDue(ctx.db);
    await ctx.app.deps.jobs.runDue(100);
    expect((await balance(company)).balance).toBe(100_000_200.29);
    await expect(ctx.db.execute(sql`UPDATE wallet_entries SET amount = 1 WHERE company_id = ${company.id}`)).rejects.toThrow();
    await expect(ctx.db.execute(sql`DELETE FROM wallet_entries WHERE company_id = ${company.id}`)).rejects.toThrow();
    expect((await balance(company)).balance).toBe(100_000_200.29);
  });
});

describe('restart in the middle of a pending verification', () => {
  it('runs the job on a new app built on the same database', async () => {
    const first = await createTestApp({ paymentProvider: 'sandbox', walletVerifyDelaySeconds: 300 }, ctx.testDb);
    const company = await createCompany(ctx.db, { redirectDomains: ['pay.example'] });
    const res = await as(first.app, company).post('/api/wallet/top-up', { ...valid, amount: 777, redirect_url: 'https://pay.example/' });
    const ref = res.json().transactionReference;
    await as(first.app, anonymous).post(await checkoutPath(ref), 'outcome=success', FORM);
    await first.close();

    const second = await createTestApp({ paymentProvider: 'sandbox' }, ctx.testDb);
    try {
      await makeVerifyJobsDue(ctx.db);
      await second.app.deps.jobs.runDue(100);
      const json = (await as(second.app, company).get(`/api/wallet/transaction/status?transaction_reference=${ref}`)).json();
      expect(json.transaction_status).toBe('success');
      expect(await ledgerFor(ctx.db, company.id)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});

describe('unexpected failures', () => {
  it("answer 500 with each route's message in the wallet shape, without details", async () => {
    const broken = await createTestApp({ paymentProvider: 'sandbox' });
    try {
      const company = await createCompany(broken.db, { redirectDomains: ['pay.example'] });
      // Simulate a database fault on the wallet tables only.
      await broken.db.execute(sql`ALTER TABLE wallet_transactions RENAME TO wallet_transactions_gone`);
      await broken.db.execute(sql`ALTER TABLE wallet_entries RENAME TO wallet_entries_gone`);
      // The balance reads its one row here (0094), no longer the ledger.
      await broken.db.execute(sql`ALTER TABLE wallet_balances RENAME TO wallet_balances_gone`);
      const api = as(broken.app, company);
      let res = await api.post('/api/wallet/top-up', { ...valid, redirect_url: 'https://pay.example/' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ status: 'error', message: 'An unexpected error occurred while initiating the top-up.' });
      for (const path of ['/api/wallet/transaction/status', '/api/wallet/check-transaction-status']) {
        res = await api.get(`${path}?transaction_reference=WT-X`);
        expect(res.statusCode).toBe(500);
        expect(res.json()).toEqual({ status: 'error', message: 'An unexpected error occurred while checking the transaction status.' });
      }
      res = await api.get('/api/wallet/balance');
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ status: 'error', message: 'An unexpected error occurred while reading the wallet balance.' });
    } finally {
      await broken.close();
    }
  });
});
