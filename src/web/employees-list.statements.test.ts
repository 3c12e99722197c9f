// The console's Employees page, as sent to PostgreSQL (docs/console.md, "Overview pages"): the view
// with no search, no status and no sort is U1's page statement, the page and the total in one, so
// a view sends the session's read and that one statement (it sent three: the session, the page, the
// count); with its session cached (docs/decisions.md, "Console sessions cached"), that statement
// alone. Its answers are the search's, on both databases. Its rows are kept by the instance
// (employee-rows.service.ts): a view read again sends only its places (ids and versions).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany, createUsers } from '../../test/helpers/factories.js';
import { statementsOf } from '../../test/helpers/statements-sent.js';
import { createAdmin, signIn, type WebClient } from '../../test/helpers/web.js';
import { releaseConsoleSessionsHold } from '../platform/auth/console-access.js';
import { createEmployeeRows } from './employee-rows.service.js';

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

/** The body of the first page's table. */
const tableOf = (body: string) => body.slice(body.indexOf('<table>'), body.indexOf('</table>'));

describe("the first view's rows, kept by the instance (employee-rows.service.ts)", () => {
  it('are drawn again for a renamed user, a renamed type, a leaver and the next day, and never for another company', async () => {
    const view = async (c = client) => tableOf((await c.get('/console/employees')).body);
    const first = await view();
    expect(await view()).toBe(first);
    const [{ id, company_id: companyId }] = (
      await ctx.db.execute<{ id: number; company_id: number }>(sql`SELECT id, company_id FROM users WHERE first_name = 'Worker0'`)
    ).rows;
    await ctx.db.execute(sql`UPDATE users SET first_name = 'Renamed' WHERE id = ${id}`);
    expect(await view()).toContain('>Renamed Listed<');
    await ctx.db.execute(sql`INSERT INTO user_types (company_id, name) VALUES (${companyId}, 'Seasonal')`);
    await ctx.db.execute(
      sql`UPDATE users SET user_type_id = (SELECT id FROM user_types WHERE name = 'Seasonal' AND company_id = ${companyId}) WHERE id = ${id}`,
    );
    expect(await view()).toContain('<td>Seasonal</td>');
    await ctx.db.execute(sql`UPDATE user_types SET name = 'Seasonal staff' WHERE name = 'Seasonal' AND company_id = ${companyId}`);
    expect(await view()).toContain('<td>Seasonal staff</td>');
    await ctx.db.execute(sql`UPDATE users SET exit_date = '2020-01-31', exit_reason = 'resignation' WHERE id = ${id}`);
    const left = await view();
    expect(left).toContain('Exited');
    // The next Lagos day is another version of every row: the rows kept under a day are not used on the next.
    let day = '2031-03-01';
    const rows = createEmployeeRows(ctx.app.services.users.search, () => day);
    const search = vi.spyOn(ctx.app.services.users.search, 'search');
    try {
      const draw = () => rows(companyId, { offset: 0, limit: 25 });
      const drawn = await draw();
      await draw();
      expect(search).toHaveBeenCalledTimes(1);
      day = '2031-03-02';
      expect((await draw()).rows.map(String)).toEqual(drawn.rows.map(String));
      expect(search).toHaveBeenCalledTimes(2);
    } finally {
      search.mockRestore();
    }
    // Another company's first view holds none of them.
    const other = await createCompany(ctx.db);
    const otherAdmin = await createAdmin(ctx.db, other.id);
    await createUsers(ctx.db, other.id, [{ firstName: 'Stranger', lastName: 'Elsewhere' }]);
    const theirs = await view(await signIn(ctx.app, otherAdmin.email));
    expect(theirs).toContain('Stranger Elsewhere');
    expect(theirs).not.toContain('Listed');
  });
});

describe.skipIf(!process.env.DATABASE_URL)('on PostgreSQL', () => {
  it('a view of the first page, or of a later one, sends one statement, its places with the total; its session is cached', async () => {
    // An earlier file of this worker may have ended a session: its hold would bypass the cache.
    releaseConsoleSessionsHold();
    // Warm: each named statement prepared on some connection, and the rows kept.
    for (let i = 0; i < 3; i++) for (const url of ['/console/employees', '/console/employees?page=2']) await client.get(url);
    for (const [url, statement] of [
      ['/console/employees', 'users_listed_places'],
      ['/console/employees?page=2', 'users_listed_deep_places'],
    ]) {
      const sent = await statementsOf(() => client.get(url));
      // The authentication generation is read at most once a second, by whichever request comes first.
      expect(sent.filter((name) => name !== 'auth_generation')).toEqual([statement]);
    }
  });

  it('a view with a user changed since sends its places, then its page with the total', async () => {
    releaseConsoleSessionsHold();
    await client.get('/console/employees');
    await ctx.db.execute(sql`UPDATE users SET title = 'Changed' WHERE id = (SELECT min(id) FROM users WHERE last_name = 'Listed')`);
    const sent = await statementsOf(() => client.get('/console/employees'));
    expect(sent.filter((name) => name !== 'auth_generation')).toEqual(['users_listed_places', 'users_listed_rows']);
  });
});
