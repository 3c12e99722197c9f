// Wallet errors: W1 validation word for word with no partial writes, and W2 errors.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import type { TestCompany } from '../../../test/helpers/factories.js';
import { anonymous, as } from '../../../test/helpers/http.js';
import { VALID_TOP_UP, WALLET_MESSAGES, walletCompanies } from '../../../test/helpers/wallet.js';
import { queryRows } from '../../db/client.js';

let ctx: TestContext;
let acme: TestCompany;
let child: TestCompany;
let other: TestCompany;

const { COMPANY_404, WALLET_403, TX_403 } = WALLET_MESSAGES;
const valid = VALID_TOP_UP;

beforeAll(async () => {
  ctx = await createTestApp({ paymentProvider: 'sandbox', walletVerifyDelaySeconds: 120 });
  ({ acme, child, other } = await walletCompanies(ctx.db));
});
afterAll(() => ctx.close());

const topUp = (company: TestCompany, body: unknown, query = '') => as(ctx.app, company).post(`/api/wallet/top-up${query}`, body);
const status = (company: TestCompany, query: string, path = '/api/wallet/transaction/status') =>
  as(ctx.app, company).get(`${path}?${query}`);
const countTransactions = async () =>
  (await queryRows<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM wallet_transactions`))[0].n;

describe('W1 POST /api/wallet/top-up: validation, word for word, and no partial writes', () => {
  const cases: [string, unknown, string][] = [
    ['no customer email', { amount: 500, redirect_url: valid.redirect_url }, 'Customer email is required for API requests.'],
    ['a blank customer email', { ...valid, customer_email: '  ' }, 'Customer email is required for API requests.'],
    ['a null customer email', { ...valid, customer_email: null }, 'Customer email is required for API requests.'],
    ['no redirect URL', { amount: 500, customer_email: valid.customer_email }, 'Redirect URL is required for API requests.'],
    ['an empty body', {}, 'Customer email is required for API requests.'],
    ['an invalid e-mail', { ...valid, customer_email: 'not-an-email' }, 'The customer email must be a valid email address.'],
    ['a NUL byte in the e-mail', { ...valid, customer_email: 'a\u0000b@x.test' }, 'The customer email must be a valid email address.'],
    ['no amount', { customer_email: valid.customer_email, redirect_url: valid.redirect_url }, 'The amount field is required.'],
    ['an amount below 100', { ...valid, amount: 99.99 }, 'The amount must be between 100 and 100,000,000.'],
    ['an amount above 100,000,000', { ...valid, amount: 100_000_000.01 }, 'The amount must be between 100 and 100,000,000.'],
    ['a negative amount', { ...valid, amount: -500 }, 'The amount must be between 100 and 100,000,000.'],
    ['a huge amount', { ...valid, amount: 1e21 }, 'The amount must be between 100 and 100,000,000.'],
    ['an amount string with a comma', { ...valid, amount: '1,000' }, 'The amount must be a number.'],
    ['three decimals', { ...valid, amount: 100.123 }, 'The amount must have at most two decimal places.'],
    ['a non-numeric amount', { ...valid, amount: 'lots' }, 'The amount must be a number.'],
    ['a non-http redirect', { ...valid, redirect_url: 'javascript:alert(1)' }, 'The redirect URL must be a valid http or https URL.'],
    ['an ftp redirect', { ...valid, redirect_url: 'ftp://acme.example/x' }, 'The redirect URL must be a valid http or https URL.'],
    ['a relative redirect', { ...valid, redirect_url: '/done' }, 'The redirect URL must be a valid http or https URL.'],
    [
      'credentials in the redirect',
      { ...valid, redirect_url: 'https://user:pw@acme.example/' },
      'The redirect URL must be a valid http or https URL.',
    ],
    [
      'an unauthorized host',
      { ...valid, redirect_url: 'https://evil.example/done' },
      'The redirect URL is not on a domain authorized for this company.',
    ],
    [
      'a look-alike host',
      { ...valid, redirect_url: 'https://evilacme.example/done' },
      'The redirect URL is not on a domain authorized for this company.',
    ],
    [
      'a host hidden behind @',
      { ...valid, redirect_url: 'https://acme.example@evil.example/' },
      'The redirect URL must be a valid http or https URL.',
    ],
    [
      "another company's host",
      { ...valid, redirect_url: 'https://other.example/done' },
      'The redirect URL is not on a domain authorized for this company.',
    ],
  ];
  it.each(cases)('answers 400 {status:"error"} for %s', async (_name, body, message) => {
    const before = await countTransactions();
    const res = await topUp(acme, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 'error', message });
    expect(await countTransactions()).toBe(before);
  });

  it('answers a request without a body with the customer e-mail message', async () => {
    const res = await as(ctx.app, acme).post('/api/wallet/top-up');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 'error', message: 'Customer email is required for API requests.' });
  });

  it('answers malformed JSON with 400 in the wallet shape', async () => {
    const res = await as(ctx.app, acme).post('/api/wallet/top-up', '{"amount":', { headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 'error', message: 'Malformed JSON body.' });
  });

  it('answers 401 {error:"Unauthorized"} without a valid token', async () => {
    for (const headers of [{}, { authorization: 'Bearer pk_wrong' }] as Record<string, string>[]) {
      const res = await as(ctx.app, { auth: headers }).post('/api/wallet/top-up', valid);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Unauthorized' });
    }
  });

  it('answers 403 for a company the caller may not act for, 404 for one that does not exist, 400 for a non-integer', async () => {
    let res = await topUp(acme, { ...valid, company_id: other.id });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ status: 'error', message: WALLET_403 });
    res = await topUp(child, { ...valid, company_id: acme.id });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ status: 'error', message: WALLET_403 });
    res = await topUp(acme, { ...valid, company_id: 999_999 });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 'error', message: COMPANY_404 });
    res = await topUp(acme, valid, '?company_id=999999');
    expect(res.statusCode).toBe(404);
    res = await topUp(acme, { ...valid, company_id: 'abc' });
    expect(res.statusCode).toBe(400);
    expect(res.json().status).toBe('error');
  });

  it('checks the redirect URL against the target company (a child) and allows subdomains and ports', async () => {
    let res = await topUp(acme, { ...valid, company_id: child.id });
    expect(res.json()).toEqual({ status: 'error', message: 'The redirect URL is not on a domain authorized for this company.' });
    res = await topUp(acme, { ...valid, company_id: child.id, redirect_url: 'https://pay.child.example/back?x=1' });
    expect(res.statusCode).toBe(200);
    res = await topUp(acme, { ...valid, redirect_url: 'http://127.0.0.1:8080/back' });
    expect(res.statusCode).toBe(200);
    res = await topUp(acme, { ...valid, redirect_url: 'http://127.0.0.10/back' });
    expect(res.statusCode).toBe(400);
  });
});

describe('W2 GET /api/wallet/transaction/status: errors', () => {
  let ref: string;
  beforeAll(async () => {
    ref = (await topUp(acme, valid)).json().transactionReference;
  });

  it('requires transaction_reference (400, wallet shape) on both paths', async () => {
    for (const path of ['/api/wallet/transaction/status', '/api/wallet/check-transaction-status']) {
      const res = await as(ctx.app, acme).get(path);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ status: 'error', message: 'The transaction reference field is required.' });
    }
  });

  it("answers 404 Transaction not found. for unknown references and another company's", async () => {
    for (const [company, query] of [
      [acme, 'transaction_reference=WT-UNKNOWN'],
      [other, `transaction_reference=${ref}`],
      [child, `transaction_reference=${ref}`],
      [acme, `transaction_reference=${ref}&company_id=${child.id}`],
      [acme, `transaction_reference=${ref}&company_id=999999`],
      [acme, 'transaction_reference=WT%00X'],
      [acme, `transaction_reference=${'A'.repeat(5000)}`],
    ] as const) {
      const res = await status(company, query);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ status: 'error', message: 'Transaction not found.' });
    }
  });

  it('answers 403 for a company the caller may not act for, and finds a child transaction through company_id', async () => {
    let res = await status(acme, `transaction_reference=${ref}&company_id=${other.id}`);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ status: 'error', message: TX_403 });
    res = await status(child, `transaction_reference=${ref}&company_id=${acme.id}`, '/api/wallet/check-transaction-status');
    expect(res.statusCode).toBe(403);
    const childRef = (await topUp(acme, { ...valid, company_id: child.id, redirect_url: 'https://child.example/' })).json()
      .transactionReference;
    res = await status(acme, `transaction_reference=${childRef}&company_id=${child.id}`);
    expect(res.statusCode).toBe(200);
    expect((await status(child, `transaction_reference=${childRef}`)).statusCode).toBe(200);
  });

  it('answers 401 {error:"Unauthorized"}', async () => {
    const res = await as(ctx.app, anonymous).get(`/api/wallet/transaction/status?transaction_reference=${ref}`);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Unauthorized' });
  });
});
