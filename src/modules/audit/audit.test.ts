// The audit log (docs/audit.md) through HTTP: an event per change with actor, request id, address
// and user agent; changes and their event commit together or not at all (failures injected after
// the change); the tables refuse UPDATE and DELETE; the sealer chains what was committed, and the
// chain verifier finds a row altered, removed or added by hand;
// GET /api/audit-events filters, cursor, CSV export, and a parent reading its child's log.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { sealAudit } from '../../../test/helpers/audit.js';
import { validNuban } from '../../../test/helpers/banks.js';
import { createCompany, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { newUserBody } from '../../../test/helpers/users.js';
import { queryRows } from '../../db/client.js';
import { findBrokenLinks } from '../../platform/audit/index.js';

let ctx: TestContext;
let acme: TestCompany;
let child: TestCompany;
let other: TestCompany;
// biome-ignore lint/suspicious/noExplicitAny: answers are asserted structurally
type Json = Record<string, any>;

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db, { name: 'Acme' });
  child = await createCompany(ctx.db, { createdBy: acme.id });
  other = await createCompany(ctx.db);
});
afterAll(() => ctx.close());

const events = async (company: TestCompany, query = '') => {
  const res = await as(ctx.app, company).get(`/api/audit-events${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Json[]; next_cursor: string | null };
};
const createUser = async (company: TestCompany, overrides: Json = {}) => {
  const res = await as(ctx.app, company).post('/api/users', newUserBody(company, overrides), {
    headers: { 'user-agent': 'audit-test/1.0' },
    remoteAddress: '203.0.113.9',
  });
  expect(res.statusCode, res.body).toBe(200);
  return { id: res.json().user.id as number, requestId: res.headers['x-request-id'] as string };
};
const userCount = async (companyId: number) =>
  (await queryRows<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM users WHERE company_id = ${companyId}`))[0].n;
const auditCount = async (companyId: number) =>
  (await queryRows<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM audit_events WHERE company_id = ${companyId}`))[0].n;

describe('recording', () => {
  it('records a created user with the token, request id, address and user agent', async () => {
    const made = await createUser(acme);
    // Listed at once, sealed (seq and hashes) once the sealer has run.
    const [pending] = (await events(acme, '?action=user.created')).data;
    expect(pending).toMatchObject({ action: 'user.created', target: { id: String(made.id) } });
    await sealAudit(ctx.db, acme.id);
    const [event] = (await events(acme, '?action=user.created')).data;
    expect(event).toMatchObject({
      company_id: acme.id,
      actor: { type: 'token', email: null },
      action: 'user.created',
      target: { type: 'user', id: String(made.id) },
      request_id: made.requestId,
      ip: '203.0.113.9',
      user_agent: 'audit-test/1.0',
    });
    expect(event.id).toMatch(/^aud_\d+$/);
    expect(event.occurred_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(event.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('records an update with the fields that changed, account numbers as their last 4 and never the password', async () => {
    const first = validNuban('058');
    const made = await createUser(acme, { bank_name: 'GTB', account_number: first, base_salary: 450000 });
    const next = validNuban('058');
    const res = await as(ctx.app, acme).put(`/api/users/${made.id}`, {
      base_salary: 520000,
      account_number: next,
      password: 'Sup3r-secret-pass!',
      password_confirmation: 'Sup3r-secret-pass!',
    });
    expect(res.statusCode, res.body).toBe(200);
    const [event] = (await events(acme, `?action=user.updated&target_type=user&target_id=${made.id}`)).data;
    expect(event.changes.base_salary).toEqual([expect.stringMatching(/^450000/), expect.stringMatching(/^520000/)]);
    expect(event.changes.account_number).toEqual([`••••${first.slice(-4)}`, `••••${next.slice(-4)}`]);
    expect(event.changes.password).toEqual(['[secret]', '[secret]']);
    expect(JSON.stringify(event)).not.toContain('Sup3r-secret-pass!');
    expect(JSON.stringify(event)).not.toContain(next);
  });
});

describe('the change and its event commit together', () => {
  it('a failure after the change and its event (at commit) leaves neither', async () => {
    await ctx.db.execute(
      sql.raw(
        `CREATE FUNCTION audit_test_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.first_name = 'Doomed' THEN RAISE EXCEPTION 'injected'; END IF; RETURN NULL; END $$`,
      ),
    );
    await ctx.db.execute(
      sql.raw(
        'CREATE CONSTRAINT TRIGGER audit_test_fail AFTER INSERT ON users DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION audit_test_fail()',
      ),
    );
    try {
      const [users, audits] = [await userCount(acme.id), await auditCount(acme.id)];
      const res = await as(ctx.app, acme).post('/api/users', newUserBody(acme, { first_name: 'Doomed' }));
      expect(res.statusCode).toBe(500);
      expect([await userCount(acme.id), await auditCount(acme.id)]).toEqual([users, audits]);
    } finally {
      await ctx.db.execute(sql.raw('DROP TRIGGER audit_test_fail ON users'));
    }
  });

  it('a failure writing the event leaves no change', async () => {
    await ctx.db.execute(
      sql.raw(`CREATE FUNCTION audit_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected'; END $$`),
    );
    await ctx.db.execute(
      sql.raw('CREATE TRIGGER audit_test_refuse BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION audit_test_refuse()'),
    );
    try {
      const users = await userCount(acme.id);
      const res = await as(ctx.app, acme).post('/api/users', newUserBody(acme));
      expect(res.statusCode).toBe(500);
      expect(await userCount(acme.id)).toBe(users);
    } finally {
      await ctx.db.execute(sql.raw('DROP TRIGGER audit_test_refuse ON audit_events'));
    }
  });
});

describe('tamper evidence', () => {
  it('refuses UPDATE, DELETE and TRUNCATE of events and of their seals', async () => {
    await sealAudit(ctx.db, acme.id);
    await expect(ctx.db.execute(sql`UPDATE audit_events SET action = 'x' WHERE company_id = ${acme.id}`)).rejects.toThrow();
    await expect(ctx.db.execute(sql`DELETE FROM audit_events WHERE company_id = ${acme.id}`)).rejects.toThrow();
    await expect(ctx.db.execute(sql`TRUNCATE audit_events`)).rejects.toThrow();
    await expect(ctx.db.execute(sql`UPDATE audit_seals SET hash = 'x' WHERE company_id = ${acme.id}`)).rejects.toThrow();
    await expect(ctx.db.execute(sql`DELETE FROM audit_seals WHERE company_id = ${acme.id}`)).rejects.toThrow();
    await expect(ctx.db.execute(sql`TRUNCATE audit_seals`)).rejects.toThrow();
  });

  it('seals each company in the order its events were written, continuing its chain', async () => {
    const company = await createCompany(ctx.db);
    await createUser(company);
    await sealAudit(ctx.db, company.id);
    await createUser(company);
    await createUser(company);
    await sealAudit(ctx.db, company.id);
    const rows = await queryRows<{ seq: number; action: string; prev_hash: string; hash: string }>(
      ctx.db,
      sql`SELECT s.seq::int AS seq, e.action, s.prev_hash, s.hash FROM audit_seals s JOIN audit_events e ON e.id = s.event_id
          WHERE s.company_id = ${company.id} ORDER BY s.seq`,
    );
    expect(rows.map((row) => row.seq)).toEqual([1, 2, 3, 4]);
    expect(rows.map((row) => row.action)).toEqual(['token.issued', 'user.created', 'user.created', 'user.created']);
    expect(rows[0].prev_hash).toBe('0'.repeat(64));
    for (let i = 1; i < rows.length; i++) expect(rows[i].prev_hash).toBe(rows[i - 1].hash);
    // Nothing left to seal: a second sealer finds nothing.
    expect((await queryRows<{ n: number }>(ctx.db, sql`SELECT audit_seal() AS n`))[0].n).toBe(0);
  });

  it('verify finds nothing wrong, then a row altered by hand, a deleted row, a deleted tail, a row added by hand', async () => {
    const company = await createCompany(ctx.db);
    for (let i = 0; i < 3; i++) await createUser(company);
    await sealAudit(ctx.db, company.id);
    expect(await findBrokenLinks(ctx.db, company.id)).toEqual([]);
    const rows = await queryRows<{ id: number; seq: number }>(
      ctx.db,
      sql`SELECT event_id::int AS id, seq::int AS seq FROM audit_seals WHERE company_id = ${company.id} ORDER BY seq`,
    );
    const guards = ['audit_events_no_update_delete', 'audit_seals_no_update_delete'];
    const toggle = (on: boolean) =>
      Promise.all(
        guards.map((name) => ctx.db.execute(sql.raw(`ALTER TABLE ${name.split('_no_')[0]} ${on ? 'ENABLE' : 'DISABLE'} TRIGGER ${name}`))),
      );
    const removeEvents = async (ids: number[]) => {
      await ctx.db.execute(sql`DELETE FROM audit_seals WHERE event_id = ANY(${`{${ids.join(',')}}`}::bigint[])`);
      await ctx.db.execute(sql`DELETE FROM audit_events WHERE id = ANY(${`{${ids.join(',')}}`}::bigint[])`);
    };
    await toggle(false);
    try {
      await ctx.db.execute(sql`UPDATE audit_events SET actor_id = 'someone-else' WHERE id = ${rows[1].id}`);
      expect(await findBrokenLinks(ctx.db, company.id)).toEqual([{ company_id: company.id, seq: 2, id: rows[1].id, reason: 'hash' }]);
      // The company's first event is its token's (token.issued); then three users.
      await removeEvents([rows[1].id, rows[2].id]);
      expect(await findBrokenLinks(ctx.db, company.id)).toEqual([{ company_id: company.id, seq: 4, id: rows[3].id, reason: 'seq' }]);
      await removeEvents([rows[3].id]);
      expect(await findBrokenLinks(ctx.db, company.id)).toEqual([{ company_id: company.id, seq: 2, id: 0, reason: 'head' }]);
    } finally {
      await toggle(true);
    }
    // An event slipped in below the sealed watermark (as an old transaction's) never gets a seal.
    const [added] = await queryRows<{ id: number }>(
      ctx.db,
      sql`INSERT INTO audit_events (company_id, actor_type, actor_id, action, target_type, target_id, xid)
          VALUES (${company.id}, 'system', 'x', 'user.created', 'user', '1', '3') RETURNING id::int AS id`,
    );
    expect(await findBrokenLinks(ctx.db, company.id)).toEqual([{ company_id: company.id, seq: 0, id: added.id, reason: 'unsealed' }]);
    expect(await findBrokenLinks(ctx.db, acme.id)).toEqual([]);
  });
});

describe('GET /api/audit-events', () => {
  it('pages newest first with a cursor and filters by action prefix, actor and time', async () => {
    const company = await createCompany(ctx.db);
    // seq 1 is the company's token (token.issued), then five users.
    for (let i = 0; i < 5; i++) await createUser(company);
    await sealAudit(ctx.db, company.id);
    const first = await events(company, '?limit=2');
    expect(first.data.map((e) => e.seq)).toEqual([6, 5]);
    const second = await events(company, `?limit=2&cursor=${first.next_cursor}`);
    expect(second.data.map((e) => e.seq)).toEqual([4, 3]);
    const third = await events(company, `?limit=2&cursor=${second.next_cursor}`);
    expect(third.data.map((e) => e.seq)).toEqual([2, 1]);
    expect(third.data[1].action).toBe('token.issued');
    expect(third.next_cursor).toBeNull();
    expect((await events(company, '?action=user.*')).data).toHaveLength(5);
    expect((await events(company, '?action=invoice.*')).data).toHaveLength(0);
    const tokenId = first.data[0].actor.id;
    expect((await events(company, `?actor_type=token&actor_id=${tokenId}`)).data).toHaveLength(5);
    expect((await events(company, '?actor_type=operator')).data).toHaveLength(0);
    expect((await events(company, '?from=2000-01-01&to=2999-12-31')).data).toHaveLength(6);
    expect((await events(company, '?to=2000-01-01')).data).toHaveLength(0);
  });

  it('reads the same pages through its named statements (no filter) as planned for a filter that keeps every event', async () => {
    const company = await createCompany(ctx.db);
    for (let i = 0; i < 3; i++) await createUser(company);
    // Every page with no filter, cursor after cursor, against the same page filtered by a window holding every event.
    for (let cursor = ''; ; ) {
      const plain = await events(company, `?limit=3${cursor}`);
      expect(await events(company, `?limit=3&from=2000-01-01${cursor}`)).toEqual(plain);
      if (!plain.next_cursor) break;
      cursor = `&cursor=${plain.next_cursor}`;
    }
  });

  it('answers 422 for bad filters and a foreign cursor', async () => {
    const res = await as(ctx.app, acme).get('/api/audit-events?actor_type=robot&action=DROP&from=yesterday&cursor=abc');
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().error).sort()).toEqual(['action', 'actor_type', 'cursor', 'from']);
  });

  it("lets a parent read its child's log, and nobody else", async () => {
    await createUser(child);
    expect((await events(acme, `?company_id=${child.id}`)).data[0]).toMatchObject({ company_id: child.id, action: 'user.created' });
    expect((await as(ctx.app, other).get(`/api/audit-events?company_id=${child.id}`)).statusCode).toBe(403);
    expect((await as(ctx.app, child).get(`/api/audit-events?company_id=${acme.id}`)).statusCode).toBe(403);
  });

  it('exports CSV, filtered, with the same events', async () => {
    const res = await as(ctx.app, acme).get('/api/audit-events/export?from=2000-01-01');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe(
      'id,seq,occurred_at,actor_type,actor_id,actor_email,action,target_type,target_id,changes,request_id,ip,user_agent,prev_hash,hash',
    );
    expect(lines.length - 1).toBe(await auditCount(acme.id));
    expect((await as(ctx.app, acme).get('/api/audit-events/export?to=nope')).statusCode).toBe(422);
  });
});
