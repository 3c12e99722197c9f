// Which origins a console form may come from: with PUBLIC_URL unset, every loopback name of the
// port (a first run works at http://127.0.0.1:3000 as README says, and at localhost); with
// PUBLIC_URL set, its origin only. A foreign origin is refused either way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany } from '../../test/helpers/factories.js';
import { anonymous, as } from '../../test/helpers/http.js';
import { ADMIN_PASSWORD, createAdmin, csrfOf, formBody, mergeCookies } from '../../test/helpers/web.js';
import { loadConfig } from '../config.js';

const PORT = 3456;
let unset: TestContext;
let explicit: TestContext;
let email: string;

beforeAll(async () => {
  // publicUrl: undefined is "PUBLIC_URL unset" (the test helper otherwise sets one).
  unset = await createTestApp({ publicUrl: undefined, port: PORT });
  explicit = await createTestApp({ publicUrl: 'https://payroll.example', port: PORT }, unset.testDb);
  const company = await createCompany(unset.db);
  email = (await createAdmin(unset.db, company.id)).email;
}, 180_000);
afterAll(async () => {
  await explicit?.close();
  await unset?.close();
});

async function signInFrom(ctx: TestContext, origin: string) {
  const visitor = as(ctx.app, anonymous);
  const login = await visitor.get('/console/login');
  return visitor.post('/console/login', formBody({ _csrf: csrfOf(login.body), email, password: ADMIN_PASSWORD }), {
    headers: { origin, cookie: mergeCookies('', login.headers['set-cookie']), 'content-type': 'application/x-www-form-urlencoded' },
  });
}

describe('PUBLIC_URL', () => {
  it('defaults to the listening address, not http://localhost:$PORT (the banner names the listening address, see seed.test.ts)', () => {
    const config = loadConfig({}, { PORT: '4100' });
    expect(config.publicUrl).toBe('http://127.0.0.1:4100');
    expect(config.publicUrlIsDefault).toBe(true);
    expect(loadConfig({ port: 4200 }, {}).publicUrl).toBe('http://127.0.0.1:4200');
    expect(loadConfig({ port: 4300, host: '0.0.0.0' }, {}).publicUrl).toBe('http://127.0.0.1:4300');
    expect(loadConfig({ port: 4400, host: '::1' }, {}).publicUrl).toBe('http://[::1]:4400');
    const set = loadConfig({}, { PUBLIC_URL: 'https://payroll.example/' });
    expect(set.publicUrl).toBe('https://payroll.example');
    expect(set.publicUrlIsDefault).toBe(false);
  });
});

describe('the console form origin check', () => {
  it('with PUBLIC_URL unset, accepts a sign-in from every loopback name of the port', async () => {
    for (const origin of [`http://127.0.0.1:${PORT}`, `http://localhost:${PORT}`, `http://[::1]:${PORT}`]) {
      const res = await signInFrom(unset, origin);
      expect(res.statusCode, origin).toBe(303);
      expect(res.headers.location).toBe('/console');
    }
  });

  it('with PUBLIC_URL unset, still refuses another port, https, and any other site', async () => {
    for (const origin of [`http://127.0.0.1:${PORT + 1}`, `https://127.0.0.1:${PORT}`, 'https://evil.test', 'null']) {
      const res = await signInFrom(unset, origin);
      expect(res.statusCode, origin).toBe(403);
      expect(res.body).toContain('Form refused');
    }
  });

  it('with PUBLIC_URL set, accepts its origin only: loopback names are refused', async () => {
    expect((await signInFrom(explicit, 'https://payroll.example')).statusCode).toBe(303);
    for (const origin of [`http://127.0.0.1:${PORT}`, `http://localhost:${PORT}`, 'https://evil.test']) {
      expect((await signInFrom(explicit, origin)).statusCode, origin).toBe(403);
    }
  });
});
