// GET /api/loans sends its page as text (loans.service.ts, `listText`): each loan's text kept by the
// instance with its row's version (loans.list-text.service.ts). Every page must be, byte for byte,
// what the route's serializer (fast-json-stringify, compiled from the route's own response schema as
// Fastify compiles it) writes for `list`'s object: every kind, status, rate and closing, skipped
// periods out of order, filters, pages and past the end. A page read again reads no rows; a changed
// loan is read anew; another company's page holds none of them.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createStaff, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { answeredAsSerialized, routeSerializer } from '../../../test/helpers/json-text.js';
import { loansRepo } from './loans.repo.js';
import { LoanListAnswer, LoanSchema } from './loans.schemas.js';
import type { LoanListQuery } from './loans.service.js';

let ctx: TestContext;
let acme: TestCompany;
let other: TestCompany;
let people: { id: number }[];

const serialize = routeSerializer({ Loan: LoanSchema }, LoanListAnswer, '/api/loans');

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db);
  other = await createCompany(ctx.db);
  people = await createStaff(ctx.db, acme.id, 2);
  const [stranger] = await createStaff(ctx.db, other.id, 1);
  await ctx.db.execute(sql`INSERT INTO loans (company_id, user_id, kind, principal, balance, instalment, start_period, interest_rate_annual, status,
      skipped_periods, closed_balance, closed_at, created_at, updated_at)
    SELECT ${acme.id}::int, CASE WHEN n % 2 = 0 THEN ${people[0].id}::int ELSE ${people[1].id}::int END, CASE WHEN n % 3 = 0 THEN 'advance' ELSE 'loan' END,
      100000 + n * 1000.5, 50000.25 + n, 10000, '2031-' || lpad((1 + n % 12)::text, 2, '0'),
      (ARRAY[0, 12.5, 7.125, 100])[1 + n % 4], (ARRAY['active', 'paid_off', 'written_off'])[1 + n % 3],
      CASE WHEN n % 4 = 1 THEN ARRAY['2031-09', '2031-03', '2031-05'] ELSE '{}'::text[] END,
      CASE WHEN n % 3 = 0 THEN NULL ELSE n * 10.01 END, CASE WHEN n % 3 = 0 THEN NULL ELSE '2031-06-07T08:09:10.123456Z'::timestamptz END,
      '2031-01-01T00:00:00.5Z'::timestamptz + n * interval '1 minute', now()
    FROM generate_series(1, 11) AS n`);
  await ctx.db.execute(sql`INSERT INTO loans (company_id, user_id, kind, principal, balance, instalment, start_period)
    VALUES (${other.id}, ${stranger.id}, 'loan', 5, 5, 1, '2031-01')`);
});
afterAll(() => ctx.close());

const loans = () => ctx.app.services.loans.loans;

/** The route's answer, held equal to what its serializer writes for `list`'s object for the same query. */
const both = (company: TestCompany, query: LoanListQuery) =>
  answeredAsSerialized<{ data: { total: number; data: { id: number; balance: string; company_id: number }[] } }>(
    ctx.app,
    company,
    '/api/loans',
    query,
    async (raw) => serialize(await loans().list(company.id, query, raw)),
  );

describe('the loans page as text', () => {
  it('is what the serializer writes on every page, filtered or not, read and read again', async () => {
    for (let round = 0; round < 2; round++) {
      for (let page = 1; page <= 5; page++) {
        const answer = await both(acme, { page, per_page: 3 });
        expect(answer.data.total).toBe(11);
      }
      await both(acme, { status: 'written_off' });
      await both(acme, { kind: 'advance', per_page: 2, page: 2 });
      await both(acme, { user_id: people[0].id });
    }
    const all = await both(acme, { per_page: 50 });
    expect(new Set(all.data.data.map((loan) => loan.company_id))).toEqual(new Set([acme.id]));
    expect((await both(other, { per_page: 50 })).data.data).toHaveLength(1);
  });

  it('reads no rows for a page it keeps, and a changed loan anew', async () => {
    await both(acme, { per_page: 4 });
    const page = vi.spyOn(loansRepo, 'page');
    const read = async () => {
      const res = await as(ctx.app, acme).get('/api/loans?per_page=4');
      expect(res.statusCode).toBe(200);
      return JSON.parse(res.body).data.data as { id: number; balance: string }[];
    };
    try {
      const [first] = await read();
      expect(page).not.toHaveBeenCalled();
      await ctx.db.execute(sql`UPDATE loans SET balance = 1.23 WHERE id = ${first.id}`);
      expect((await read())[0].balance).toBe('1.23');
      expect(page).toHaveBeenCalledTimes(1);
      await read();
      expect(page).toHaveBeenCalledTimes(1);
    } finally {
      page.mockRestore();
    }
    await both(acme, { per_page: 4 });
  });
});
