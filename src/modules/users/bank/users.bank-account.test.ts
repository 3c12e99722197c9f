// POST /api/users/{id}/bank-account/verify through HTTP, with the sandbox resolver and with Paystack
// (a fake server on 127.0.0.1: no real network), on one database.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { type FakeResolver, invalidNuban, resolved, startFakeResolver, validNuban } from '../../../../test/helpers/banks.js';
import { createCompany, type TestCompany } from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { createUserViaApi } from '../../../../test/helpers/users.js';
import { queryRows } from '../../../db/client.js';
import { nubanFor } from '../../banks/index.js';

let sandbox: TestContext;
let paystack: TestContext;
let fake: FakeResolver;
let acme: TestCompany;

beforeAll(async () => {
  fake = await startFakeResolver();
  sandbox = await createTestApp();
  paystack = await createTestApp(
    { paymentProvider: 'paystack', paystackSecretKey: fake.secret, paystackBaseUrl: fake.url },
    sandbox.testDb,
  );
  acme = await createCompany(sandbox.db, { name: 'Verify Ltd' });
});
afterAll(async () => {
  await paystack.close();
  await sandbox.close();
  await fake.close();
});

const verify = (ctx: TestContext, id: number, company = acme) => as(ctx.app, company).post(`/api/users/${id}/bank-account/verify`);
const stored = async (id: number) =>
  (
    await queryRows<{ account_name: string | null; verified: boolean }>(
      sandbox.db,
      sql`SELECT account_name, bank_account_verified_at IS NOT NULL AS verified FROM users WHERE id = ${id}`,
    )
  )[0];
/** An employee through U3; `account_number` is returned too (U3's answer does not carry it). */
const employee = async (overrides: Record<string, unknown> = {}) => {
  const fields = { first_name: 'Adaeze', last_name: 'Okonkwo-Eze', bank_name: 'GTBank', account_number: validNuban('058'), ...overrides };
  const user = await createUserViaApi(sandbox.app, acme, fields);
  return { ...user, account_number: fields.account_number as string };
};

describe('sandbox', () => {
  it("resolves to the employee's own name in capitals, stores it and says it matches", async () => {
    const user = await employee();
    const res = await verify(sandbox, user.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      message: 'Bank account verified successfully.',
      account_name: 'ADAEZE OKONKWO-EZE',
      name_matches: true,
      user: { id: user.id, bank_code: '058', account_name: 'ADAEZE OKONKWO-EZE' },
    });
    expect(Date.parse(body.user.bank_account_verified_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(await stored(user.id)).toEqual({ account_name: 'ADAEZE OKONKWO-EZE', verified: true });
  });

  it('answers 422 for an account starting with 999, and stores nothing', async () => {
    const user = await employee({ account_number: nubanFor('058', '999000123') });
    const res = await verify(sandbox, user.id);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: { account_number: ['Account could not be resolved.'] } });
    expect(await stored(user.id)).toEqual({ account_name: null, verified: false });
  });

  it('answers 422 without a bank code, without an account, or for a stored number that is not a NUBAN; 404 for no such user', async () => {
    const nameless = await employee({ bank_name: 'Ajo Thrift Cooperative', account_number: '1234567890' });
    expect((await verify(sandbox, nameless.id)).json()).toEqual({
      error: { bank_code: ['The user has no bank code: set bank_code before verifying the account.'] },
    });
    const unbanked = await employee({ bank_name: undefined, account_number: undefined });
    const none = await verify(sandbox, unbanked.id);
    expect(none.statusCode).toBe(422);
    expect(none.json()).toEqual({ error: { account_number: ['The user has no account number to verify.'] } });
    const broken = await employee();
    await sandbox.db.execute(sql`UPDATE users SET account_number = ${invalidNuban('058')} WHERE id = ${broken.id}`);
    expect((await verify(sandbox, broken.id)).json()).toEqual({
      error: { account_number: ['The account number is not a valid NUBAN for this bank.'] },
    });
    const missing = await verify(sandbox, 2_147_483_647);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'User not found.' });
    const other = await createCompany(sandbox.db);
    expect((await verify(sandbox, broken.id, other)).statusCode).toBe(404);
  });
});

describe('Paystack', () => {
  it("asks GET /bank/resolve with the secret key and Paystack's bank code, and compares names ignoring case, order and punctuation", async () => {
    const user = await employee({ bank_name: 'Kuda', account_number: validNuban('950211') });
    fake.answers.set(user.account_number, resolved(user.account_number, 'OKONKWO EZE, ADAEZE'));
    const res = await verify(paystack, user.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ account_name: 'OKONKWO EZE, ADAEZE', name_matches: true });
    const request = fake.requests.at(-1);
    expect(request?.authorization).toBe(`Bearer ${fake.secret}`);
    expect(request?.url).toBe(`/bank/resolve?account_number=${user.account_number}&bank_code=50211`);
    expect(await stored(user.id)).toEqual({ account_name: 'OKONKWO EZE, ADAEZE', verified: true });

    const someoneElse = await employee();
    fake.answers.set(someoneElse.account_number, resolved(someoneElse.account_number, 'CHUKWUMA BELLO'));
    expect((await verify(paystack, someoneElse.id)).json()).toMatchObject({ account_name: 'CHUKWUMA BELLO', name_matches: false });
  });

  it('answers 422 when Paystack cannot find the account', async () => {
    const user = await employee();
    const res = await verify(paystack, user.id);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: { account_number: ['Account could not be resolved.'] } });
    expect(await stored(user.id)).toEqual({ account_name: null, verified: false });
  });

  it.each([
    ['a 503', { kind: 'json', httpStatus: 503, body: { status: false, message: 'Service unavailable' } }],
    ['an HTML 502', { kind: 'raw', httpStatus: 502, text: '<html>Bad gateway</html>' }],
    ['malformed JSON', { kind: 'raw', httpStatus: 200, text: '{"status": tru' }],
    ['a success without a name', { kind: 'json', body: { status: true, message: 'ok', data: { account_number: 'x' } } }],
    ['a 429', { kind: 'json', httpStatus: 429, body: { status: false, message: 'Too many requests' } }],
  ] as const)('answers 502 for %s, storing nothing and keeping an earlier verification', async (_name, answer) => {
    const user = await employee();
    await sandbox.db.execute(sql`UPDATE users SET account_name = 'EARLIER', bank_account_verified_at = now() WHERE id = ${user.id}`);
    fake.answers.set(user.account_number, answer);
    const res = await verify(paystack, user.id);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ error: 'The bank could not be reached to resolve the account. Try again later.' });
    expect(await stored(user.id)).toEqual({ account_name: 'EARLIER', verified: true });
  });
});
