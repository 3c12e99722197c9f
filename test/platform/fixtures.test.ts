// The shared fixtures do what docs/architecture.md ("Tests") says: one app and one company per file,
// and a funded company whose balance came through the real sandbox top-up.
import { describe, expect, FIXTURE_WALLET_NAIRA, test } from '../helpers/fixtures.js';
import { as } from '../helpers/http.js';
import { signIn } from '../helpers/web.js';

let firstApp: unknown;

describe('test/helpers/fixtures.ts', () => {
  test('ctx and company are built once for the file', async ({ ctx, company }) => {
    firstApp = ctx.app;
    expect(company.token).toBeTruthy();
  });

  test('a later test gets the same app', async ({ ctx }) => {
    expect(ctx.app).toBe(firstApp);
  });

  test('fundedCompany holds the fixture amount in its wallet, credited through the sandbox', async ({ api, fundedCompany }) => {
    expect(fundedCompany.id).toBeGreaterThan(0);
    const res = await api.get('/api/wallet/balance');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().balance).toBe(FIXTURE_WALLET_NAIRA);
  });

  test('admin is an administrator of the company who signs in to the console', async ({ ctx, company, admin }) => {
    const session = await signIn(ctx.app, admin.email);
    expect((await session.get('/console/employees')).statusCode).toBe(200);
    const listed = await as(ctx.app, company).get(`/api/users/${admin.id}`);
    expect(listed.statusCode, listed.body).toBe(200);
  });
});
