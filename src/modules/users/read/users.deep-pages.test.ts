// U1's pages after the first are read through their ids (users.read.repo.ts, "deep page"), counted
// from the list's end in its second half. Every page must be the one `LIMIT .. OFFSET` gives: here
// each window of the list (first, middle, last, the one across the end, past the end, both paging
// styles, with deleted users among the live ones, and the `exited` filter) is compared with the
// slice of one page holding the whole list, which the first-page statement answers.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, createStaff, type TestCompany } from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { users } from '../../../db/schema/index.js';
import { lagosDate } from '../../../platform/format.js';

let ctx: TestContext;
let company: TestCompany;
let other: TestCompany;
const TOTAL = 47;

interface Page {
  Resources: { id: number }[];
  totalResults: number;
  startIndex: number;
  itemsPerPage: number;
}

beforeAll(async () => {
  ctx = await createTestApp();
  company = await createCompany(ctx.db, { scopes: ['all'] });
  other = await createCompany(ctx.db, { scopes: ['all'] });
  // Another company's users interleaved by id: they must never enter this company's pages.
  for (let batch = 0; batch < 5; batch += 1) {
    await createStaff(ctx.db, company.id, 11);
    await createStaff(ctx.db, other.id, 3);
  }
  // 55 created, 8 soft-deleted (through U7): 47 live, with holes in the ids.
  const mine = await ctx.db.select({ id: users.id }).from(users).where(eq(users.companyId, company.id)).orderBy(users.id);
  for (const index of [0, 5, 17, 26, 27, 40, 53, 54]) {
    const gone = await as(ctx.app, company).delete(`/api/users/${mine[index].id}`);
    expect(gone.statusCode, gone.body).toBe(200);
  }
  // Some leavers for the filter: exits in the past.
  const leavers = mine.filter((_, index) => index % 4 === 1).map((row) => row.id);
  await ctx.db.update(users).set({ exitDate: '2025-01-31', exitReason: 'resignation' }).where(inArray(users.id, leavers));
});
afterAll(() => ctx.close());

async function get(path: string): Promise<{ body: string; page: Page }> {
  const response = await as(ctx.app, company).get(path);
  expect(response.statusCode, response.body).toBe(200);
  return { body: response.body, page: JSON.parse(response.body) as Page };
}

describe('U1 deep pages (users.read.repo.ts)', () => {
  it('every window is the OFFSET slice of the whole list, byte for byte', async () => {
    const whole = await get('/api/users?per_page=1000');
    expect(whole.page.totalResults).toBe(TOTAL);
    expect(whole.page.Resources).toHaveLength(TOTAL);
    const texts = whole.page.Resources.map((user) => JSON.stringify(user));
    // Resources' texts as the whole page wrote them (the same writer, so the same bytes).
    const expected = (start: number, count: number) => {
      const slice = texts.slice(start - 1, start - 1 + count);
      return `{"Resources":[${slice.join(',')}],"totalResults":${TOTAL},"startIndex":${start},"itemsPerPage":${slice.length}}`;
    };
    for (const count of [1, 5, 10, 20]) {
      for (const start of [1, 2, 10, 23, 24, 25, TOTAL - count, TOTAL - count + 1, TOTAL - 2, TOTAL, TOTAL + 1, TOTAL + 30]) {
        if (start < 1) continue;
        const { body } = await get(`/api/users?startIndex=${start}&count=${count}`);
        expect(body, `startIndex=${start}&count=${count}`).toBe(expected(start, count));
      }
    }
    for (const perPage of [7, 20]) {
      for (let page = 1; page <= Math.ceil(TOTAL / perPage) + 1; page += 1) {
        const { body } = await get(`/api/users?page=${page}&per_page=${perPage}`);
        expect(body, `page=${page}&per_page=${perPage}`).toBe(expected((page - 1) * perPage + 1, perPage));
      }
    }
  });

  it('walking every page one by one gives each live user once, in id order', async () => {
    const seen: number[] = [];
    for (let start = 1; start <= TOTAL; start += 6) {
      const { page } = await get(`/api/users?startIndex=${start}&count=6`);
      seen.push(...page.Resources.map((user) => user.id));
    }
    const whole = await get('/api/users?per_page=1000');
    expect(seen).toEqual(whole.page.Resources.map((user) => user.id));
  });

  it('the exited filter pages as its whole list does', async () => {
    const whole = await get('/api/users?status=exited&per_page=1000');
    const ids = whole.page.Resources.map((user) => user.id);
    expect(ids.length).toBeGreaterThan(5);
    for (let page = 1; page <= Math.ceil(ids.length / 4) + 1; page += 1) {
      const { page: got } = await get(`/api/users?status=exited&page=${page}&per_page=4`);
      expect(got.Resources.map((user) => user.id)).toEqual(ids.slice((page - 1) * 4, page * 4));
      expect(got.totalResults).toBe(ids.length);
    }
    expect(lagosDate() > '2025-01-31').toBe(true);
  });

  it("the console's list (the object writer) agrees with the API on deep pages", async () => {
    for (const start of [1, 20, 40, 47]) {
      const object = await ctx.app.services.users.users.list(company.id, { startIndex: start, count: 10 }, true);
      const { body } = await get(`/api/users?startIndex=${start}&count=10`);
      expect(JSON.stringify(object)).toBe(body);
    }
  });
});
