// P1's unfiltered `total` comes from paystub_counts (migrations/0141_paystub_counts.sql), kept by
// statement-level triggers on paystubs. Held here to count(*) after P2 calls, P2 calls running in
// parallel (on PostgreSQL, concurrent transactions of one company), a delete, and per company.
import { sql } from 'drizzle-orm';
import type { TestContext } from '../../../test/helpers/app.js';
import type { TestCompany } from '../../../test/helpers/factories.js';
import { describe, expect, test } from '../../../test/helpers/fixtures.js';
import { as } from '../../../test/helpers/http.js';
import { createPayrollWorld, paystubItem, postPaystubs } from '../../../test/helpers/payroll.js';
import { queryRows } from '../../db/client.js';

let world: Awaited<ReturnType<typeof createPayrollWorld>>;

test.beforeAll(async ({ ctx }) => {
  world = await createPayrollWorld(ctx.db);
});

async function expectExact(ctx: TestContext, company: TestCompany, expected: number) {
  const [truth] = await queryRows<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM paystubs WHERE company_id = ${company.id}`);
  expect(truth.n).toBe(expected);
  const res = await as(ctx.app, company).get('/api/paystubs?per_page=1');
  expect(res.statusCode).toBe(200);
  expect(res.json().data.total).toBe(expected);
}
const month = (m: number) => {
  const mm = String(m).padStart(2, '0');
  const last = new Date(Date.UTC(2026, m, 0)).getUTCDate();
  return { pay_period_start: `2026-${mm}-01`, pay_period_end: `2026-${mm}-${last}` };
};

describe('paystub_counts', () => {
  test('follows P2 calls, parallel P2 calls and deletes, per company', async ({ ctx }) => {
    const { acme, stranger, staff, strangerUser } = world;
    const monthly = staff.filter((_, index) => index !== 2); // Chidi is paid weekly
    await expectExact(ctx, acme, 0);
    const first = await postPaystubs(ctx.app, acme, { paystubs: monthly.map((user) => paystubItem(user.id, month(1))) });
    expect(first.statusCode, first.body).toBe(201);
    await expectExact(ctx, acme, monthly.length);
    const parallel = await Promise.all(
      [2, 3, 4, 5].map((m) => postPaystubs(ctx.app, acme, { paystubs: monthly.map((user) => paystubItem(user.id, month(m))) })),
    );
    for (const res of parallel) expect(res.statusCode, res.body).toBe(201);
    await expectExact(ctx, acme, monthly.length * 5);
    await ctx.db.execute(sql`DELETE FROM paystubs WHERE id = (SELECT max(id) FROM paystubs WHERE company_id = ${acme.id})`);
    await expectExact(ctx, acme, monthly.length * 5 - 1);
    // A filtered list still counts its matches.
    const filtered = await as(ctx.app, acme).get(`/api/paystubs?user_id=${monthly[0].id}`);
    expect(filtered.json().data.total).toBe(5);
    await expectExact(ctx, stranger, 0);
    expect((await postPaystubs(ctx.app, stranger, { paystubs: [paystubItem(strangerUser.id, month(1))] })).statusCode).toBe(201);
    await expectExact(ctx, stranger, 1);
    await expectExact(ctx, acme, monthly.length * 5 - 1);
  });
});
