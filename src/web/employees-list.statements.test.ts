// The console's Employees page, as sent to PostgreSQL (docs/console.md, "Overview pages"): the view
// with no search, no status and no sort is U1's page statement, the page and the total in one, so
// a view sends the session's read and that one statement (it sent three: the session, the page, the
// count); with its session cached (docs/decisions.md, "Console sessions cached"), that statement
// alone. Its answers are the search's, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany, createUsers } from '../../test/helpers/factories.js';
import { statementsOf } from '../../test/helpers/statements-sent.js';
import { createAdmin, signIn, type WebClient } from '../../test/helpers/web.js';
import { releaseConsoleSessionsHold } from '../platform/auth/console-access.js';

let ctx: TestContext;
let client: WebClient;
beforeAll(async () => {
  ctx = await createTestApp();
  const company = await createCompany(ctx.db);
  const admin = await createAdmin(ctx.db, company.id);
  await createUsers(
    ctx.db,
    company.id,
    Array.from({ length: 59 }, (_, i) => ({ firstName: `Worker${i}`, lastName: 'Listed', isActive: i % 4 !== 0 })),
  );
  client = await signIn(ctx.app, admin.email);
});
afterAll(() => ctx.close());

/** The employee numbers of a page's rows, in order. */
const numbersOf = (body: string) => [...body.matchAll(/\/statutory" aria-label="[^"]*\(([^)]+)\)"/g)].map((match) => match[1]);

it('the pages of the first view list every user once, in the order the search lists them backwards', async () => {
  const read = async (order: string) => {
    const numbers: string[] = [];
    for (const page of [1, 2, 3]) {
      const res = await client.get(`/console/employees?page=${page}${order}`);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain(`Page ${page} of 3 · 60 employees`);
      numbers.push(...numbersOf(res.body));
    }
    return numbers;
  };
  const ascending = await read('');
  expect(ascending).toHaveLength(60);
  expect(new Set(ascending).size).toBe(60);
  // `order=desc` is the search's own statement (users.search.repo.ts), not U1's.
  expect(ascending).toEqual((await read('&order=desc')).reverse());
});

describe.skipIf(!process.env.DATABASE_URL)('on PostgreSQL', () => {
  it('a view of the first page, or of a later one, sends one statement, the page with its total; its session is cached', async () => {
    // An earlier file of this worker may have ended a session: its hold would bypass the cache.
    releaseConsoleSessionsHold();
    // Warm: each named statement prepared on some connection.
    for (let i = 0; i < 3; i++) await client.get('/console/employees?page=2');
    for (const [url, statement] of [
      ['/console/employees', 'users_listed_rows'],
      ['/console/employees?page=2', 'users_listed_deep_rows'],
    ]) {
      const sent = await statementsOf(() => client.get(url));
      // The authentication generation is read at most once a second, by whichever request comes first.
      expect(sent.filter((name) => name !== 'auth_generation')).toEqual([statement]);
    }
  });
});
