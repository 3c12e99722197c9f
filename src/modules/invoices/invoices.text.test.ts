// I1's common page (no filter, newest first) is sent as text (invoices.list-text.service.ts): each
// invoice's text kept by the instance with its row's version. Every page must be, byte for byte,
// what the route's serializer (fast-json-stringify, compiled from the route's own response schema as
// Fastify compiles it) writes for `list`'s object: strings that need escaping, nulls, amounts,
// instants, every page and past the end; filtered and sorted pages answer the object as before. A
// page read again reads no rows; a changed invoice is read anew; a deleted one leaves the page and
// its total; another company's page holds none of them.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { answeredAsSerialized, routeSerializer, WEIRD } from '../../../test/helpers/json-text.js';
import { invoicesRepo } from './invoices.repo.js';
import { InvoiceSchema, InvoicesPage } from './invoices.schemas.js';
import type { ListQuery } from './invoices.validation.js';

let ctx: TestContext;
let acme: TestCompany;
let other: TestCompany;
const INVOICES = 11;

const serialize = routeSerializer({ Invoice: InvoiceSchema }, InvoicesPage, '/api/invoices');

async function insertInvoices(companyId: number, prefix: string, n: number) {
  const [user] = await createUsers(ctx.db, companyId, [{}]);
  await ctx.db.execute(
    sql`INSERT INTO invoices (company_id, user_id, user_email, transaction_id, description, service_date, provider_name, total_amount,
          amount_requested, amount_paid, balance, status, approval_status, category_name, comment, created_at, manager_decided_at)
        SELECT ${companyId}::int, ${user.id}::int, 'a@b.test', ${prefix} || n, ${WEIRD} || n, date '2026-01-01' + n, 'Provider ' || (n % 4),
               100 + n * 10.5, 100, n % 3, 100 - n % 3, (ARRAY['unpaid', 'pending', 'paid'])[1 + n % 3],
               (ARRAY['pending', 'manager_approved', 'approved'])[1 + n % 3], 'Health', CASE WHEN n % 2 = 0 THEN ${WEIRD} END,
               '2026-02-01 10:00:00.123456+00'::timestamptz + (n - n % 5) * interval '1 minute',
               CASE WHEN n % 2 = 0 THEN '2026-03-04 05:06:07.891234+00'::timestamptz END
        FROM generate_series(1, ${n}) AS n`,
  );
}

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db);
  other = await createCompany(ctx.db);
  await insertInvoices(acme.id, 'INV-T-', INVOICES);
  await insertInvoices(other.id, 'INV-O-', 2);
});
afterAll(() => ctx.close());

const service = () => ctx.app.services.invoices.invoices;

/** The route's answer, held equal to what its serializer writes for `list`'s object for the same query. */
const both = (company: TestCompany, query: ListQuery) =>
  answeredAsSerialized<{ invoices: { id: number; transaction_id: string; comment: string | null }[]; meta: { total: number } }>(
    ctx.app,
    company,
    '/api/invoices',
    query,
    async () => serialize(await service().list(company.id, query)),
  );

describe("I1's common page as text", () => {
  it('is what the serializer writes on every page and past the end, read and read again; other pages as before', async () => {
    for (let round = 0; round < 2; round++) {
      for (let page = 1; page <= 5; page++) expect((await both(acme, { page, per_page: 3 })).meta.total).toBe(INVOICES);
      await both(acme, { status: 'paid' });
      await both(acme, { sort: 'total_amount', order: 'asc', per_page: 4 });
      await both(acme, { transaction_id: 'INV-T-3' });
    }
    const all = await both(acme, { per_page: 50 });
    expect(all.invoices.every((invoice) => invoice.transaction_id.startsWith('INV-T-'))).toBe(true);
    expect((await both(other, { per_page: 50 })).invoices).toHaveLength(2);
  });

  it('reads no rows for a page it keeps; a changed invoice is read anew, a deleted one leaves', async () => {
    await both(acme, { per_page: 4 });
    const list = vi.spyOn(invoicesRepo, 'list');
    const read = async () => {
      const res = await as(ctx.app, acme).get('/api/invoices?per_page=4');
      expect(res.statusCode).toBe(200);
      return JSON.parse(res.body) as { invoices: { id: number; comment: string | null }[]; meta: { total: number } };
    };
    try {
      const {
        invoices: [first],
      } = await read();
      expect(list).not.toHaveBeenCalled();
      await ctx.db.execute(sql`UPDATE invoices SET comment = 'changed' WHERE id = ${first.id}`);
      expect((await read()).invoices[0].comment).toBe('changed');
      expect(list).toHaveBeenCalledTimes(1);
      await read();
      expect(list).toHaveBeenCalledTimes(1);
      await ctx.db.execute(sql`UPDATE invoices SET deleted_at = now() WHERE id = ${first.id}`);
      const after = await read();
      expect([after.invoices[0].id === first.id, after.meta.total]).toEqual([false, INVOICES - 1]);
    } finally {
      list.mockRestore();
    }
    await both(acme, { per_page: 4 });
  });
});
