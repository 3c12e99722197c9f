// GET /api/audit-events sends its page as text (audit.service.ts, `listText`): each sealed event's
// text from the instance's kept texts (audit.text.service.ts), the others read by id. Every page must be,
// byte for byte, what the route's serializer (fast-json-stringify, compiled from the route's own
// response schema as Fastify compiles it) writes for `list`'s object: before sealing, after, and
// again from the cache; with changes of every JSON kind and strings that need escaping. A pending
// event is never kept (its seal comes later), a kept event is not read again, a kept text is used
// only under its seal's current hash, and the read by id finds no other company's event.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { sealAudit } from '../../../test/helpers/audit.js';
import { createCompany, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { routeSerializer, WEIRD } from '../../../test/helpers/json-text.js';
import { queryRows } from '../../db/client.js';
import { auditReadRepo } from './audit.repo.js';
import { AuditEventSchema, AuditPage } from './audit.schemas.js';
import { type AuditQuery, createAuditService } from './audit.service.js';

let ctx: TestContext;
let acme: TestCompany;
let other: TestCompany;

const serialize = routeSerializer({ AuditEvent: AuditEventSchema }, AuditPage, '/api/audit-events');

const CHANGES = [
  { name: ['Ada', WEIRD] },
  { base_salary: ['450000.00', '520000.00'], active: [true, false], manager_id: [null, 12] },
  { '2': ['a', 'b'], '10': [1, 2], z: [0.1, 1e-7], big: [1e21, -0], nested: [{ b: [1, { c: null }], a: 'x' }, []] },
  { items: [[{ code: 'BONUS', amount: '1.00' }], [{ code: 'BONUS', amount: '2.00' }]] },
];

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db);
  other = await createCompany(ctx.db);
  await addEvents(acme.id);
});
afterAll(() => ctx.close());

async function addEvents(companyId: number) {
  for (const [i, changes] of CHANGES.entries()) {
    await ctx.db.execute(
      sql`INSERT INTO audit_events (company_id, actor_type, actor_id, actor_email, action, target_type, target_id, changes, request_id, ip, user_agent)
          VALUES (${companyId}, 'console_user', ${String(i)}, ${i % 2 ? null : `Ọ${i}@example.com`}, 'user.updated', 'user', ${String(i)},
                  ${JSON.stringify(changes)}::jsonb, ${i % 2 ? null : `req-${i}`}, '203.0.113.9', ${i % 2 ? null : WEIRD})`,
    );
  }
}

const service = () => createAuditService({ db: ctx.db });
/** The route's answer and what its serializer writes for `list`'s object, for the same query. */
async function both(company: TestCompany, query: AuditQuery) {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const res = await as(ctx.app, company).get(`/api/audit-events?${search}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  return { text: res.body, js: serialize(await service().list(company.id, query)) };
}
/** Every page of the query, cursor after cursor, each the route's bytes equal to the serializer's. */
async function everyPage(company: TestCompany, query: AuditQuery) {
  const pages: string[] = [];
  for (let cursor: string | null | undefined; ; ) {
    const { text, js } = await both(company, { ...query, ...(cursor ? { cursor } : {}) });
    expect(text).toBe(js);
    pages.push(text);
    cursor = JSON.parse(text).next_cursor;
    if (!cursor) return pages;
  }
}

describe('the audit page as text', () => {
  it('is what the serializer writes, pending, sealed, and sealed again from the cache, filtered or not', async () => {
    const pending = await everyPage(acme, { limit: 2 });
    expect(JSON.parse(pending[0]).data[0].seq).toBeNull();
    await sealAudit(ctx.db, acme.id);
    const sealed = await everyPage(acme, { limit: 2 });
    expect(JSON.parse(sealed[0]).data[0].hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await everyPage(acme, { limit: 2 })).toEqual(sealed);
    expect(await everyPage(acme, {})).toHaveLength(1);
    expect(await everyPage(acme, { action: 'user.*', limit: 3 })).toHaveLength(2);
    expect(await everyPage(acme, { actor_id: '1' })).toHaveLength(1);
    expect(await everyPage(acme, { action: 'invoice.*' })).toEqual(['{"data":[],"next_cursor":null}']);
  });

  it('reads a kept event no more, a pending one until it is sealed, and a page it mostly does not know whole', async () => {
    const fresh = await createCompany(ctx.db);
    await addEvents(fresh.id);
    await sealAudit(ctx.db, fresh.id);
    const read = async () => {
      const res = await as(ctx.app, fresh).get('/api/audit-events');
      expect(res.statusCode, res.body).toBe(200);
      return JSON.parse(res.body) as { data: { seq: number | null }[] };
    };
    const page = vi.spyOn(auditReadRepo, 'page');
    const byIds = vi.spyOn(auditReadRepo, 'byIds');
    const calls = () => [page.mock.calls.length, byIds.mock.calls.length];
    try {
      // The company's token event and four more, none known: the page is read whole.
      expect((await read()).data).toHaveLength(CHANGES.length + 1);
      expect(calls()).toEqual([1, 0]);
      await read();
      expect(calls()).toEqual([1, 0]);
      // Four new events, pending, of nine: read by id, and again until sealed.
      await addEvents(fresh.id);
      expect((await read()).data[0].seq).toBeNull();
      expect(calls()).toEqual([1, 1]);
      expect(byIds.mock.calls[0][2]).toHaveLength(CHANGES.length);
      await read();
      expect(calls()).toEqual([1, 2]);
      await sealAudit(ctx.db, fresh.id);
      expect((await read()).data[0].seq).not.toBeNull();
      expect(calls()).toEqual([1, 3]);
      await read();
      expect(calls()).toEqual([1, 3]);
      expect(await everyPage(fresh, {})).toHaveLength(1);
    } finally {
      page.mockRestore();
      byIds.mockRestore();
    }
  });

  it('uses a kept text only under the hash its seal has now', async () => {
    const company = await createCompany(ctx.db);
    await addEvents(company.id);
    await sealAudit(ctx.db, company.id);
    const [kept] = await everyPage(company, {});
    const newest = Number(JSON.parse(kept).data[0].id.slice('aud_'.length));
    // Another seal for the same id (as a restore or a failover could give the id to another event):
    // the text is read again, as the serializer's comparison in everyPage requires.
    const guard = (on: boolean) =>
      ctx.db.execute(sql.raw(`ALTER TABLE audit_seals ${on ? 'ENABLE' : 'DISABLE'} TRIGGER audit_seals_no_update_delete`));
    await guard(false);
    try {
      await ctx.db.execute(sql`UPDATE audit_seals SET hash = ${'e'.repeat(64)} WHERE event_id = ${newest}`);
    } finally {
      await guard(true);
    }
    const [again] = await everyPage(company, {});
    expect(JSON.parse(again).data[0].hash).toBe('e'.repeat(64));
  });

  it("finds no other company's event by id", async () => {
    const ids = await queryRows<{ id: number }>(ctx.db, sql`SELECT id::int AS id FROM audit_events WHERE company_id = ${acme.id}`);
    expect(ids.length).toBeGreaterThan(0);
    expect(
      await auditReadRepo.byIds(
        ctx.db,
        other.id,
        ids.map((row) => row.id),
      ),
    ).toEqual([]);
    expect(
      await auditReadRepo.byIds(
        ctx.db,
        acme.id,
        ids.map((row) => row.id),
      ),
    ).toHaveLength(ids.length);
  });
});
