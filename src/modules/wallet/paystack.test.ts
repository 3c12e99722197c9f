// The Paystack adapter and the webhook against a fake Paystack server on 127.0.0.1, and the
// exactly-once credit under a race of two instances' jobs and webhooks.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../../test/helpers/factories.js';
import { anonymous, as } from '../../../test/helpers/http.js';
import {
  type FakePaystack,
  ledgerFor,
  makeVerifyJobsDue,
  paystackSignature,
  paystackVerified,
  startFakePaystack,
  transactionRow,
  verifyJobsFor,
} from '../../../test/helpers/wallet.js';
import { queryRows } from '../../db/client.js';
import { ProviderError } from './providers/payment.provider.js';
import { createPaystackProvider, validPaystackSignature } from './providers/paystack.provider.js';
import { WEBHOOK_BUDGET_MS } from './webhook.routes.js';

let fake: FakePaystack;
let ctx: TestContext;
let acme: TestCompany;

beforeAll(async () => {
  fake = await startFakePaystack();
  ctx = await createTestApp({
    paymentProvider: 'paystack',
    paystackSecretKey: fake.secret,
    paystackBaseUrl: fake.url,
    walletVerifyDelaySeconds: 120,
  });
  acme = await createCompany(ctx.db, { redirectDomains: ['acme.example'] });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

const body = { amount: 5000.25, customer_email: 'payer@acme.test', redirect_url: 'https://acme.example/back' };
const topUp = async (company = acme, payload: object = body) => as(ctx.app, company).post('/api/wallet/top-up', payload);
const webhook = (app: TestContext['app'], payload: unknown, signature?: string) => {
  const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return as(app, anonymous).post('/webhooks/paystack', text, {
    headers: {
      'content-type': 'application/json',
      ...(signature === undefined
        ? { 'x-paystack-signature': paystackSignature(fake.secret, text) }
        : signature
          ? { 'x-paystack-signature': signature }
          : {}),
    },
  });
};
const chargeSuccess = (reference: string, amount = 500025) => ({
  event: 'charge.success',
  data: { reference, amount, currency: 'NGN', status: 'success' },
});

describe('Paystack adapter against a fake server', () => {
  // A generous timeout where an answer is expected (the machine is shared), a short one to test timeouts.
  const provider = (timeoutMs = 5000) => createPaystackProvider({ secretKey: fake.secret, baseUrl: fake.url, timeoutMs });

  it('initializes with the secret key, amount in kobo, e-mail, reference and callback URL', async () => {
    fake.requests.length = 0;
    const { checkoutUrl } = await provider().initialize({
      reference: 'R-1',
      amountKobo: 123456n,
      currency: 'NGN',
      email: 'a@b.test',
      callbackUrl: 'https://acme.example/back',
    });
    expect(checkoutUrl).toBe('https://checkout.paystack.test/R-1');
    const [request] = fake.requests;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/transaction/initialize');
    expect(request.headers.authorization).toBe(`Bearer ${fake.secret}`);
    expect(JSON.parse(request.body)).toEqual({
      amount: '123456',
      currency: 'NGN',
      email: 'a@b.test',
      reference: 'R-1',
      callback_url: 'https://acme.example/back',
    });
  });

  it('verifies by reference and maps statuses, amounts in kobo', async () => {
    fake.verify.set('R-ok', paystackVerified('R-ok', 'success', 123456));
    expect(await provider().verify('R-ok')).toMatchObject({ status: 'success', amountKobo: 123456n, currency: 'NGN' });
    fake.verify.set('R-fail', paystackVerified('R-fail', 'failed', 123456));
    expect((await provider().verify('R-fail')).status).toBe('failed');
    fake.verify.set('R-rev', paystackVerified('R-rev', 'reversed', 123456));
    expect((await provider().verify('R-rev')).status).toBe('failed');
    for (const status of ['abandoned', 'ongoing', 'pending', 'processing', 'queued']) {
      fake.verify.set(`R-${status}`, paystackVerified(`R-${status}`, status, 0));
      expect((await provider().verify(`R-${status}`)).status).toBe('pending');
    }
    fake.verify.set('R-404', { kind: 'json', httpStatus: 400, body: { status: false, message: 'Transaction reference not found' } });
    expect((await provider().verify('R-404')).status).toBe('pending');
  });

  const failures: [string, Parameters<FakePaystack['verify']['set']>[1]][] = [
    ['a timeout', { kind: 'hang', ms: 4000 }],
    ['a 500', { kind: 'json', httpStatus: 500, body: { status: false, message: 'oops' } }],
    ['a 502 with HTML', { kind: 'raw', httpStatus: 502, text: '<html>Bad gateway</html>' }],
    ['malformed JSON', { kind: 'raw', httpStatus: 200, text: '{"status": true, "data": {' }],
    ['an unexpected shape', { kind: 'json', body: { status: true, data: null } }],
    [
      'an unknown status',
      { kind: 'json', body: { status: true, data: { reference: 'R-x', status: 'weird', amount: 1, currency: 'NGN' } } },
    ],
    ['success without an amount', { kind: 'json', body: { status: true, data: { reference: 'R-x', status: 'success', currency: 'NGN' } } }],
    ['a different reference', paystackVerified('R-other', 'success', 100)],
    ['a 401 (bad key)', { kind: 'json', httpStatus: 401, body: { status: false, message: 'Invalid key' } }],
  ];
  it.each(failures)('turns %s into a ProviderError (retried, never a verdict)', async (_name, answer) => {
    fake.verify.set('R-x', answer);
    const started = Date.now();
    await expect(provider(300).verify('R-x')).rejects.toBeInstanceOf(ProviderError);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('fails initialize on 5xx, a timeout, malformed JSON or status false', async () => {
    for (const answer of [
      { kind: 'json', httpStatus: 503, body: {} },
      { kind: 'hang', ms: 4000 },
      { kind: 'raw', httpStatus: 200, text: 'not json' },
      { kind: 'json', httpStatus: 400, body: { status: false, message: 'Invalid email' } },
    ] as const) {
      fake.initialize = answer;
      await expect(
        provider(300).initialize({
          reference: 'R-2',
          amountKobo: 10000n,
          currency: 'NGN',
          email: 'a@b.test',
          callbackUrl: 'https://x.test',
        }),
      ).rejects.toBeInstanceOf(ProviderError);
    }
    fake.initialize = undefined;
  });

  it('checks signatures in constant time over the raw body', () => {
    const raw = Buffer.from('{"event":"charge.success"}');
    const good = paystackSignature('sk', raw.toString());
    expect(validPaystackSignature('sk', raw, good)).toBe(true);
    expect(validPaystackSignature('sk', raw, good.toUpperCase())).toBe(true);
    expect(validPaystackSignature('other', raw, good)).toBe(false);
    expect(validPaystackSignature('sk', Buffer.from('{"event": "charge.success"}'), good)).toBe(false);
    expect(validPaystackSignature('sk', raw, undefined)).toBe(false);
    expect(validPaystackSignature('sk', raw, 'abc')).toBe(false);
    expect(validPaystackSignature('sk', raw, [good])).toBe(false);
  });
});

describe('W1 and verification with PAYMENT_PROVIDER=paystack', () => {
  it('returns the authorization_url as checkoutUrl', async () => {
    const res = await topUp();
    expect(res.statusCode).toBe(200);
    const { checkoutUrl, transactionReference } = res.json();
    expect(checkoutUrl).toBe(`https://checkout.paystack.test/${transactionReference}`);
    expect((await transactionRow(ctx.db, transactionReference)).status).toBe('pending');
  });

  it('answers 500 with the interface message when Paystack cannot initialize, and leaves no open top-up', async () => {
    fake.initialize = { kind: 'json', httpStatus: 500, body: { status: false } };
    const company = await createCompany(ctx.db, { redirectDomains: ['acme.example'] });
    const res = await topUp(company);
    fake.initialize = undefined;
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ status: 'error', message: 'An unexpected error occurred while initiating the top-up.' });
    const list = await as(ctx.app, company).get('/api/wallet/balance');
    expect(list.json().balance).toBe(0);
    const rows = await queryRows(ctx.db, sql`SELECT status, failure_reason FROM wallet_transactions WHERE company_id = ${company.id}`);
    expect(rows).toEqual([{ status: 'failed', failure_reason: 'initialize_failed' }]);
  });

  it('credits only when status, amount and currency match', async () => {
    const company = await createCompany(ctx.db, { redirectDomains: ['acme.example'] });
    const refs: string[] = [];
    for (let i = 0; i < 3; i++) refs.push((await topUp(company)).json().transactionReference);
    fake.verify.set(refs[0], paystackVerified(refs[0], 'success', 500024));
    fake.verify.set(refs[1], paystackVerified(refs[1], 'success', 500025, 'USD'));
    fake.verify.set(refs[2], paystackVerified(refs[2], 'success', 500025));
    await makeVerifyJobsDue(ctx.db);
    await ctx.app.deps.jobs.runDue(100);
    expect(await transactionRow(ctx.db, refs[0])).toMatchObject({ status: 'failed', failure_reason: 'amount_mismatch' });
    expect(await transactionRow(ctx.db, refs[1])).toMatchObject({ status: 'failed', failure_reason: 'currency_mismatch' });
    expect((await transactionRow(ctx.db, refs[2])).status).toBe('success');
    expect(await ledgerFor(ctx.db, company.id)).toEqual([{ amount: '5000.25', kind: 'top_up', transaction_reference: refs[2] }]);
  });

  it('retries provider errors with job backoff, never crediting or losing the top-up, then settles', async () => {
    const company = await createCompany(ctx.db, { redirectDomains: ['acme.example'] });
    const ref = (await topUp(company)).json().transactionReference;
    for (const answer of [
      { kind: 'json', httpStatus: 500, body: {} },
      { kind: 'raw', httpStatus: 200, text: '{oops' },
    ] as const) {
      fake.verify.set(ref, answer);
      await makeVerifyJobsDue(ctx.db);
      await ctx.app.deps.jobs.runDue(100);
      const [job] = await verifyJobsFor(ctx.db, ref);
      expect(job.done_at).toBeNull();
      expect(job.failed_at).toBeNull();
      expect(job.last_error).toMatch(/Paystack/);
      expect(new Date(job.run_at).getTime()).toBeGreaterThan(Date.now() + 10_000);
      expect((await transactionRow(ctx.db, ref)).status).toBe('pending');
    }
    expect(await ledgerFor(ctx.db, company.id)).toEqual([]);
    fake.verify.set(ref, paystackVerified(ref, 'success', 500025));
    await makeVerifyJobsDue(ctx.db);
    await ctx.app.deps.jobs.runDue(100);
    expect((await transactionRow(ctx.db, ref)).status).toBe('success');
    expect(await ledgerFor(ctx.db, company.id)).toHaveLength(1);
  });
});

describe('POST /webhooks/paystack', () => {
  it('refuses a missing or wrong signature with 401 and changes nothing', async () => {
    const company = await createCompany(ctx.db, { redirectDomains: ['acme.example'] });
    const ref = (await topUp(company)).json().transactionReference;
    fake.verify.set(ref, paystackVerified(ref, 'success', 500025));
    for (const signature of ['', 'f'.repeat(128), paystackSignature('sk_wrong', JSON.stringify(chargeSuccess(ref)))]) {
      const res = await webhook(ctx.app, chargeSuccess(ref), signature);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Invalid signature.' });
    }
    expect((await transactionRow(ctx.db, ref)).status).toBe('pending');
  });

  it('verifies with Paystack before crediting: a signed event whose payment Paystack does not confirm credits nothing', async () => {
    const company = await createCompany(ctx.db, { redirectDomains: ['acme.example'] });
    const ref = (await topUp(company)).json().transactionReference;
    fake.verify.set(ref, paystackVerified(ref, 'abandoned', 0));
    const res = await webhook(ctx.app, chargeSuccess(ref));
    expect(res.statusCode).toBe(200);
    expect((await transactionRow(ctx.db, ref)).status).toBe('pending');
    expect(await ledgerFor(ctx.db, company.id)).toEqual([]);
  });

  it('credits on a confirmed event; replays and duplicates are harmless', async () => {
    const company = await createCompany(ctx.db, { redirectDomains: ['acme.example'] });
    const ref = (await topUp(company)).json().transactionReference;
    fake.verify.set(ref, paystackVerified(ref, 'success', 500025));
    for (let i = 0; i < 3; i++) expect((await webhook(ctx.app, chargeSuccess(ref))).statusCode).toBe(200);
    expect((await transactionRow(ctx.db, ref)).status).toBe('success');
    expect(await ledgerFor(ctx.db, company.id)).toHaveLength(1);
    // The job that comes later finds nothing to do.
    await makeVerifyJobsDue(ctx.db);
    await ctx.app.deps.jobs.runDue(100);
    expect(await ledgerFor(ctx.db, company.id)).toHaveLength(1);
  });

  it('acknowledges unknown references, other events and malformed JSON without effect', async () => {
    expect((await webhook(ctx.app, chargeSuccess('WT-UNKNOWN'))).statusCode).toBe(200);
    expect((await webhook(ctx.app, { event: 'transfer.success', data: { reference: 'x' } })).statusCode).toBe(200);
    const res = await webhook(ctx.app, '{not json');
    expect(res.statusCode).toBe(400);
  });

  it('queues a verification job when Paystack cannot be asked right now, and answers 200', async () => {
    const company = await createCompany(ctx.db, { redirectDomains: ['acme.example'] });
    const ref = (await topUp(company)).json().transactionReference;
    fake.verify.set(ref, { kind: 'json', httpStatus: 503, body: {} });
    expect((await webhook(ctx.app, chargeSuccess(ref))).statusCode).toBe(200);
    const jobs = await verifyJobsFor(ctx.db, ref);
    expect(jobs).toHaveLength(2);
    expect(new Date(jobs[1].run_at).getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    fake.verify.set(ref, paystackVerified(ref, 'success', 500025));
    await ctx.app.deps.jobs.runDue(100);
    expect((await transactionRow(ctx.db, ref)).status).toBe('success');
  });

  it('flags a payment Paystack confirms after the 24 h expiry for reconciliation, without a credit', async () => {
    const company = await createCompany(ctx.db, { redirectDomains: ['acme.example'] });
    const ref = (await topUp(company)).json().transactionReference;
    await ctx.db.execute(sql`UPDATE wallet_transactions SET created_at = now() - interval '25 hours' WHERE reference = ${ref}`);
    await makeVerifyJobsDue(ctx.db);
    await ctx.app.deps.jobs.runDue(100);
    expect(await transactionRow(ctx.db, ref)).toMatchObject({ status: 'failed', failure_reason: 'expired' });
    fake.verify.set(ref, paystackVerified(ref, 'success', 500025));
    expect((await webhook(ctx.app, chargeSuccess(ref))).statusCode).toBe(200);
    const w2 = await as(ctx.app, company).get(`/api/wallet/transaction/status?transaction_reference=${ref}`);
    expect(w2.json()).toMatchObject({
      transaction_status: 'failed',
      transaction: { status: 'failed', failure_reason: 'paid_after_expiry', sandbox: false },
    });
    expect(await ledgerFor(ctx.db, company.id)).toEqual([]);
  });

  it('answers within its budget when Paystack is slow, hands over to the job, and still credits once', async () => {
    const company = await createCompany(ctx.db, { redirectDomains: ['acme.example'] });
    const ref = (await topUp(company)).json().transactionReference;
    fake.verify.set(ref, { kind: 'hang', ms: 4500 });
    const started = Date.now();
    const res = await webhook(ctx.app, chargeSuccess(ref));
    const took = Date.now() - started;
    expect(res.statusCode).toBe(200);
    expect(took).toBeGreaterThanOrEqual(WEBHOOK_BUDGET_MS - 50);
    expect(took).toBeLessThan(4400);
    expect(await verifyJobsFor(ctx.db, ref)).toHaveLength(2);
    // The slow answer ('{}') arrives later and is a provider error: nothing settles from it.
    await new Promise((resolve) => setTimeout(resolve, 1800));
    expect((await transactionRow(ctx.db, ref)).status).toBe('pending');
    fake.verify.set(ref, paystackVerified(ref, 'success', 500025));
    await ctx.app.deps.jobs.runDue(100);
    await makeVerifyJobsDue(ctx.db);
    await ctx.app.deps.jobs.runDue(100);
    expect((await transactionRow(ctx.db, ref)).status).toBe('success');
    expect(await ledgerFor(ctx.db, company.id)).toHaveLength(1);
  });

  it('leaves other routes on the normal JSON parser', async () => {
    const res = await as(ctx.app, acme).post('/api/wallet/top-up', '{"amount":', { headers: { 'content-type': 'application/json' } });
    expect(res.json()).toEqual({ status: 'error', message: 'Malformed JSON body.' });
  });
});

describe('exactly once under a race', () => {
  it('two instances’ jobs and two webhooks at the same moment credit once', async () => {
    const second = await createTestApp(
      { paymentProvider: 'paystack', paystackSecretKey: fake.secret, paystackBaseUrl: fake.url },
      ctx.testDb,
    );
    try {
      for (let round = 0; round < 3; round++) {
        const company = await createCompany(ctx.db, { redirectDomains: ['acme.example'] });
        const ref = (await topUp(company)).json().transactionReference;
        // Answered after 200 ms, so every contender reads the top-up as pending and asks before
        // any answer settles it: the race happens on every run, not only on a lucky one.
        fake.verify.set(ref, { ...paystackVerified(ref, 'success', 500025), delayMs: 200 });
        // A second verify job for the same top-up, so each instance claims one.
        await ctx.app.deps.jobs.enqueue(ctx.db, 'wallet.verify', { reference: ref });
        await makeVerifyJobsDue(ctx.db);
        fake.requests.length = 0;
        const results = await Promise.all([
          ctx.app.deps.jobs.runDue(1),
          second.app.deps.jobs.runDue(1),
          webhook(ctx.app, chargeSuccess(ref)),
          webhook(second.app, chargeSuccess(ref)),
        ]);
        expect((results[2] as { statusCode: number }).statusCode).toBe(200);
        expect((results[3] as { statusCode: number }).statusCode).toBe(200);
        // More than one contender really asked Paystack, so the guard (not luck) decided.
        expect(fake.requests.filter((r) => r.url === `/transaction/verify/${ref}`).length).toBeGreaterThanOrEqual(2);
        await ctx.app.deps.jobs.runDue(100);
        expect(await ledgerFor(ctx.db, company.id)).toEqual([{ amount: '5000.25', kind: 'top_up', transaction_reference: ref }]);
        const balance = await as(second.app, company).get('/api/wallet/balance');
        expect(balance.json()).toEqual({ status: 'success', balance: 5000.25, currency: 'NGN', sandbox_balance: 0 });
      }
    } finally {
      await second.close();
    }
  });
});
