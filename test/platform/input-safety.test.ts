// Input safety where the route catalog cannot reach mechanically (test/isolation/input-safety.test.ts
// covers every JSON field, query field and path id): multipart fields, CSV cells, headers, the
// console's forms, and amounts beyond the numeric(18,2) money columns.
// One request stays a raw app.inject: a header sent twice (an array value), which as() cannot send.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../helpers/factories.js';
import { anonymous, as } from '../helpers/http.js';
import { paystubItem } from '../helpers/payroll.js';
import { generatedUsers, multipart, usersCsv } from '../helpers/users.js';
import { createAdmin, signIn } from '../helpers/web.js';
import { databaseFingerprint } from '../isolation/world.js';

let ctx: TestContext;
let acme: TestCompany;
let userId: number;
let userEmail: string;

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db);
  const [user] = await createUsers(ctx.db, acme.id, [{ firstName: 'Nuala', lastName: 'Probe' }]);
  userId = user.id;
  userEmail = user.email;
});
afterAll(() => ctx?.close());

/** Runs a request and checks that no table changed (last_used_at aside). */
async function unchanged<T>(run: () => Promise<T>): Promise<T> {
  const before = await databaseFingerprint(ctx.db);
  const result = await run();
  expect(await databaseFingerprint(ctx.db)).toEqual(before);
  return result;
}

const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(100, 1)]);

describe('NUL characters outside JSON bodies', () => {
  it('U4 with documents: a NUL in a multipart text field is 422 naming the field, nothing stored', async () => {
    const form = multipart({ title: 'Chief\u0000Engineer' }, [
      { field: 'documents', filename: 'cv.pdf', contentType: 'application/pdf', data: pdf },
    ]);
    const res = await unchanged(() => as(ctx.app, acme).put(`/api/users/${userId}`, form.payload, { headers: form.headers }));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({ error: { title: ['The title field must not contain NUL characters.'] } });
  });

  it('U8: a NUL in a multipart form field (company_id) is the bulk shape naming it', async () => {
    const form = multipart({ company_id: `${acme.id}\u0000` }, [
      { field: 'users_csv', filename: 'users.csv', contentType: 'text/csv', data: usersCsv(generatedUsers(1, acme.domain)) },
    ]);
    const res = await unchanged(() => as(ctx.app, acme).post('/api/users/bulk-create', form.payload, { headers: form.headers }));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({ errors: { company_id: ['The company id field must not contain NUL characters.'] } });
  });

  for (const route of ['bulk-create', 'bulk-update'] as const) {
    it(`U${route === 'bulk-create' ? 8 : 9}: a NUL in a CSV cell is the documented bulk error on users_csv, nothing written`, async () => {
      const row = route === 'bulk-create' ? generatedUsers(1, acme.domain)[0] : { email: userEmail };
      const body = usersCsv([{ ...row, title: 'Chief\u0000Engineer' }], { update: route === 'bulk-update' });
      const form = multipart({}, [{ field: 'users_csv', filename: 'users.csv', contentType: 'text/csv', data: body }]);
      const res = await unchanged(() => as(ctx.app, acme).post(`/api/users/${route}`, form.payload, { headers: form.headers }));
      expect(res.statusCode, res.body).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['users_csv']);
    });
  }

  it('a NUL in any value of a repeated header is 400', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/users',
      headers: { ...acme.auth, 'x-trace': ['plain', 'with\u0000nul'] },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ error: 'The x-trace header must not contain NUL characters.' });
  });

  it('a NUL in the Idempotency-Key header is 400 and no key is stored', async () => {
    const res = await unchanged(() =>
      as(ctx.app, acme).post('/api/invoices', { user_email: userEmail }, { headers: { 'idempotency-key': 'key\u0000one' } }),
    );
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ error: 'The idempotency-key header must not contain NUL characters.' });
  });

  it('a NUL in a GET body (U1 company_id) is 422 naming the field', async () => {
    const res = await as(ctx.app, acme).request('GET', '/api/users', JSON.stringify({ company_id: `${acme.id}\u0000` }), {
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({ error: { company_id: ['The company id field must not contain NUL characters.'] } });
  });

  it('console forms: a NUL in a posted field is a 4xx page, nothing written', async () => {
    const admin = await createAdmin(ctx.db, acme.id);
    const client = await signIn(ctx.app, admin.email);
    const res = await unchanged(() => client.post('/console/settings/vocabulary/add', { kind: 'user-types', value: 'Night\u0000shift' }));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('must not contain NUL characters');
    const login = await unchanged(() =>
      as(ctx.app, anonymous).post('/console/login', 'email=a%00b%40x.test&password=x', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    );
    expect(login.statusCode).toBe(422);
    expect(login.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('numbers beyond the columns', () => {
  const tooBig = '99999999999999999'; // 17 integer digits: numeric(18,2) holds 16
  it('U3 base_salary and U4 allowances beyond numeric(18,2) are 422 naming the field', async () => {
    for (const [method, url, payload, field] of [
      [
        'POST',
        '/api/users',
        {
          first_name: 'Big',
          last_name: 'Pay',
          personal_email: 'big.pay@mail.test',
          domain_name: acme.domain,
          user_types: 'Full-time',
          start_date: '2024-01-01',
          base_salary: tooBig,
        },
        'base_salary',
      ],
      ['PUT', `/api/users/${userId}`, { allowances: tooBig }, 'allowances'],
    ] as const) {
      const res = await unchanged(() => as(ctx.app, acme).request(method, url, payload));
      expect(res.statusCode, res.body).toBe(422);
      expect(Object.keys(res.json().error)).toEqual([field]);
    }
  });

  it('I3 amounts beyond numeric(18,2) are 422 naming the field', async () => {
    const res = await unchanged(() =>
      as(ctx.app, acme).post('/api/invoices', {
        user_email: userEmail,
        description: 'x',
        service_date: '2026-01-01',
        provider_name: 'x',
        total_amount: tooBig,
        amount_requested: '10',
        category_name: 'Health',
      }),
    );
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().error)).toContain('total_amount');
  });

  it('U10 a suspension_duration_value beyond int4 is 422 in the settings shape', async () => {
    const res = await unchanged(() =>
      as(ctx.app, acme).post(`/api/users/${userId}/suspend`, {
        suspension_duration_type: 'minutes',
        suspension_duration_value: 99999999999,
      }),
    );
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({ error: expect.stringContaining('suspension duration value') });
  });

  it('company_id beyond int4 in a query or body is the 400 of a non-integer; a 10-digit id in a path is looked up', async () => {
    for (const [url, payload] of [
      ['/api/users?company_id=99999999999999999999999', undefined],
      ['/api/users?company_id=2147483648', undefined],
      ['/api/invoices', { company_id: '2147483648' }],
    ] as const) {
      const res = await unchanged(() => as(ctx.app, acme).request(payload ? 'POST' : 'GET', url, payload));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ error: 'The company_id field must be an integer.' });
    }
    const tenDigits = await as(ctx.app, acme).get('/api/contribution-settings/2147483647');
    expect(tenDigits.statusCode, tenDigits.body).toBe(404);
    expect(tenDigits.json()).toEqual({ error: 'Contribution settings not found.' });
  });
});

describe('numbers that are not finite on the console', () => {
  it('its paged pages (employees, payroll runs, a run and its status) answer ?page=1e309, Infinity, -Infinity, NaN, 1e400 with a 4xx, never a 500', async () => {
    const admin = await createAdmin(ctx.db, acme.id);
    const client = await signIn(ctx.app, admin.email);
    const paid = await as(ctx.app, acme).post('/api/paystubs', {
      paystubs: [paystubItem(userId, { pay_period_start: '2026-02-01', pay_period_end: '2026-02-28' })],
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const run = paid.json().transaction_id as string;
    // Every console route with a numeric query field (src/web: `page`).
    const pages = ['/console/employees', '/console/payroll', `/console/payroll/${run}`, `/console/payroll/${run}/status`];
    const problems: string[] = [];
    for (const page of pages) {
      expect((await client.get(page)).statusCode, page).toBe(200);
      for (const value of ['1e309', 'Infinity', '-Infinity', 'NaN', '1e400']) {
        const res = await unchanged(() => client.get(`${page}?page=${value}`));
        if (res.statusCode < 400 || res.statusCode >= 500)
          problems.push(`${page}?page=${value}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
