// U1's page written as JSON text by PostgreSQL (users.json.repo.ts) must be, byte for byte, what the
// serializer writes for the same user (JSON.stringify of serializeUser, which is what the route's
// schema serializer wrote before): for users with every field set, every optional field null, and
// random strings, timestamps and money drawn by fast-check (fixed seed). The SQL writer runs on both
// databases here, though only a PostgreSQL server uses it in production (users.service.ts).
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { setEveryField } from '../../../../test/helpers/users.js';
import { onDatabaseServer } from '../../../db/client.js';
import { users } from '../../../db/schema/index.js';
import { lagosDate } from '../../../platform/format.js';
import { type UserWithNames, usersRepo } from '../users.repo.js';
import { serializeUser, serializeUserRow } from '../users.serializer.js';
import { userListJson } from '../users.service.js';
import { usersReadRepo } from './users.read.repo.js';
import { searchRepo } from './users.search.repo.js';

let ctx: TestContext;
let company: TestCompany;

beforeAll(async () => {
  ctx = await createTestApp();
  company = await createCompany(ctx.db, { scopes: ['all'] });
});
afterAll(() => ctx.close());

/** Each user of the company's first page as the serializer writes it, by id. */
async function serializerTexts(mayGrant: boolean): Promise<string[]> {
  const { rows } = await searchRepo.search(ctx.db, company.id, { offset: 0, limit: 1000 });
  const named = await usersRepo.findManyByIds(
    ctx.db,
    company.id,
    rows.map((row) => row.user.id),
  );
  const byId = new Map(named.map((user) => [user.user.id, user]));
  return rows.map((row) => JSON.stringify(serializeUser(byId.get(row.user.id) as UserWithNames, mayGrant)));
}

async function expectSameTexts() {
  for (const mayGrant of [true, false]) {
    const { users: texts, total } = await usersReadRepo.pageJson(ctx.db, company.id, 0, 1000, mayGrant);
    const expected = await serializerTexts(mayGrant);
    expect(total).toBe(expected.length);
    // One by one, so that a difference names its user.
    for (const [index, text] of texts.entries()) expect(text).toBe(expected[index]);
    expect(texts).toHaveLength(expected.length);
  }
}

// Strings PostgreSQL can store (no NUL) and JSON can carry: escapes, control characters, quotes,
// backslashes, non-ASCII, astral characters, U+2028.
const text = fc
  .string({
    unit: fc.oneof(
      fc.constantFrom('"', '\\', '\n', '\t', '\u007f', '\u2028', '😀', 'Ọ', '/', '<'),
      fc.integer({ min: 1, max: 31 }).map((code) => String.fromCharCode(code)),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    ),
  })
  .filter((value) => !value.includes('\u0000'));
// Instants from year 1000 to 9999 with microseconds, and money of numeric(18,2) from 0 to its largest.
const instant = fc.bigInt({ min: -30_610_224_000_000_000n, max: 253_402_300_799_999_999n });
const money = fc.bigInt({ min: 0n, max: 999_999_999_999_999_999n }).map((kobo) => `${kobo / 100n}.${String(kobo % 100n).padStart(2, '0')}`);
/** PostgreSQL's text of an instant given in microseconds since 1970 (no binary float on the way). */
function microsText(micros: bigint): string {
  const ms = micros >= 0n ? micros / 1000n : -((-micros + 999n) / 1000n);
  return `${new Date(Number(ms)).toISOString().slice(0, 23)}${String(micros - ms * 1000n).padStart(3, '0')}+00`;
}
const drawn = fc.record({
  address: fc.option(text),
  title: text,
  suspensionReason: fc.option(text),
  documentPaths: fc.option(fc.array(text, { maxLength: 3 })),
  suspendedAt: fc.option(instant),
  createdAt: instant,
  baseSalary: fc.option(money),
  allowances: money,
});

describe('U1 page as JSON text written by the database', () => {
  it('is what the serializer writes: every field set, every optional field null, a console user hidden or not', async () => {
    const [boss, admin, plain] = await createUsers(ctx.db, company.id, [{}, { roles: ['user', 'admin'] }, {}]);
    await setEveryField(ctx.db, admin.id, boss.id);
    await ctx.db
      .update(users)
      .set({
        userTypeId: null,
        domainId: null,
        baseSalary: null,
        allowances: null,
        startDate: null,
        documentPaths: null,
        onboardingToken: 'tok-p',
      })
      .where(eq(users.id, plain.id));
    await expectSameTexts();
    // The console user's onboarding token is shown only to a viewer who may grant console access.
    const hidden = (await usersReadRepo.pageJson(ctx.db, company.id, 0, 10, false)).users.map((t) => JSON.parse(t));
    expect(hidden.find((user) => user.id === admin.id).onboarding_token).toBeNull();
    expect(hidden.find((user) => user.id === plain.id).onboarding_token).toBe('tok-p');
  });

  it('is what the serializer writes for random strings, instants and money', async () => {
    const values = fc.sample(drawn, { numRuns: 60, seed: 19 });
    const created = await createUsers(
      ctx.db,
      company.id,
      values.map(() => ({})),
    );
    for (const [index, value] of values.entries()) {
      const at = (micros: bigint | null) => (micros === null ? null : (sql`${microsText(micros)}::timestamptz` as unknown as Date));
      await ctx.db
        .update(users)
        .set({ ...value, suspendedAt: at(value.suspendedAt), createdAt: at(value.createdAt) as Date })
        .where(eq(users.id, created[index].id));
    }
    await expectSameTexts();
  });

  it('computes is_active as the serializer does around an exit, for the page and for the exited filter', async () => {
    // Exit yesterday: exited; exit today: still active; exit tomorrow: active (docs/users.md, "Leavers").
    const today = lagosDate();
    const day = (offset: number) => new Date(Date.parse(`${today}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
    const created = await createUsers(ctx.db, company.id, [{}, {}, {}, { isActive: false }]);
    for (const [index, offset] of [-1, 0, 1, -30].entries()) {
      await ctx.db
        .update(users)
        .set({ exitDate: day(offset), exitReason: 'other' })
        .where(eq(users.id, created[index].id));
    }
    await expectSameTexts();
    const page = await usersReadRepo.pageJson(ctx.db, company.id, 0, 1000, true);
    const active = (id: number) => JSON.parse(page.users.find((text) => text.startsWith(`{"id":${id},`)) as string).is_active;
    expect(created.map((user) => active(user.id))).toEqual([false, true, true, false]);
    const exited = await usersReadRepo.pageJson(ctx.db, company.id, 0, 1000, true, { filter: 'exited', today });
    const ids = exited.users.map((text) => JSON.parse(text).id);
    expect(ids).toEqual(expect.arrayContaining([created[0].id, created[3].id]));
    expect(ids).not.toContain(created[1].id);
    expect(exited.total).toBe(ids.length);
    const rows = await usersReadRepo.page(ctx.db, company.id, 0, 1000, { filter: 'exited', today });
    expect(rows.rows.map((row) => JSON.stringify(serializeUserRow(row, true, today)))).toEqual(exited.users);
  });

  it('is chosen on a PostgreSQL server only, outside transactions (the path of U1: users.service.ts)', async () => {
    expect(onDatabaseServer(ctx.db)).toBe(ctx.testDb.database.kind === 'postgres');
    await ctx.db.transaction(async (tx) => expect(onDatabaseServer(tx)).toBe(false));
  });

  it('U1 answers the same document from either writer, and an empty page', async () => {
    const viaApi = await as(ctx.app, company).get('/api/users?per_page=1000');
    expect(viaApi.statusCode).toBe(200);
    expect(viaApi.headers['content-type']).toBe('application/json; charset=utf-8');
    const { users: texts, total } = await usersReadRepo.pageJson(ctx.db, company.id, 0, 1000, true);
    expect(viaApi.body).toBe(userListJson(texts, total, 1));
    // The console's object, serialized, is the same document.
    const object = await ctx.app.services.users.users.list(company.id, { per_page: 1000 }, true);
    expect(JSON.stringify(object)).toBe(viaApi.body);
    const past = await as(ctx.app, company).get('/api/users?page=99&per_page=1000');
    expect(past.body).toBe(`{"Resources":[],"totalResults":${total},"startIndex":98001,"itemsPerPage":0}`);
  });
});
