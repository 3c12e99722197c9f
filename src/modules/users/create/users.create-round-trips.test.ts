// U3's round trips on PostgreSQL (docs/users.md, "Performance notes"): creates were bound by the
// socket writes of their statements, so the statements a create sends are counted here
// (test/helpers/statements-sent.ts), for one request only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany } from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { statementsOf } from '../../../../test/helpers/statements-sent.js';
import { newUserBody } from '../../../../test/helpers/users.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe.skipIf(!process.env.DATABASE_URL)('U3 on PostgreSQL', () => {
  it('a create sends 6 statements: the reservation, begin, the lookup, the insert, its audit event, commit', async () => {
    const company = await createCompany(ctx.db);
    // Warm: the token is cached and each named statement prepared on some connection.
    for (let i = 0; i < 3; i++) await as(ctx.app, company).post('/api/users', newUserBody(company, { last_name: `Warm${i}` }));
    let status = 0;
    const sent = await statementsOf(async () => {
      status = (await as(ctx.app, company).post('/api/users', newUserBody(company, { first_name: 'Counted', last_name: 'Once' })))
        .statusCode;
    });
    expect(status).toBe(200);
    expect(sent.filter((s) => !s.startsWith('select "api_tokens"'))).toEqual([
      'users_reserve_numbers',
      'begin',
      'users_create_lookup',
      'users_insert_rows',
      'INSERT INTO',
      'commit',
    ]);
  });
});
