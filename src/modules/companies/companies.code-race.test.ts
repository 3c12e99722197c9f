// Company codes of companies created at the same moment (docs/security.md, company codes): names
// sharing their first 10 letters derive the same base code, and no create may fail because a
// concurrent twin took that code first, through C2 or the operator API (which the CLI calls).
import { inArray } from 'drizzle-orm';
import { companyBody } from '../../../test/helpers/companies.js';
import { describe, expect, test as shared } from '../../../test/helpers/fixtures.js';
import { as } from '../../../test/helpers/http.js';
import { companies } from '../../db/schema/index.js';

const ADMIN_TOKEN = 'test-admin-token-code-race-0123456789';
const PARALLEL = 10;

// The fixture company is the parent of the C2 creates.
const test = shared.extend('appConfig', { scope: 'file' }, { adminToken: ADMIN_TOKEN });

/** The codes PARALLEL companies got, all distinct and all derived from `base`. */
function expectDistinctCodes(codes: string[], base: string): void {
  expect(new Set(codes).size).toBe(PARALLEL);
  for (const code of codes) expect(code).toMatch(new RegExp(`^${base}[0-9]*$`));
}

describe('company codes of concurrent creates', () => {
  test(`C2: ${PARALLEL} companies whose names share 10 letters, created at once, are all created`, async ({ ctx, api }) => {
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => api.post('/api/companies', companyBody({ name: `Simultane Group ${i}` }))),
    );
    expect(results.map((res) => `${res.statusCode} ${res.statusCode === 201 ? '' : res.body}`)).toEqual(
      Array.from({ length: PARALLEL }, () => '201 '),
    );
    const codes = results.map((res) => res.json().company.code as string);
    expectDistinctCodes(codes, 'SIMULTANEG');
    const ids = results.map((res) => res.json().company.id as number);
    const stored = await ctx.db.select({ code: companies.code }).from(companies).where(inArray(companies.id, ids));
    expect(stored.map((row) => row.code).sort()).toEqual([...codes].sort());
  });

  test(`operator API (and so the CLI): ${PARALLEL} companies whose names share 10 letters, created at once`, async ({ ctx }) => {
    const operator = as(ctx.app, { auth: { authorization: `Bearer ${ADMIN_TOKEN}` } }, { remoteAddress: '10.9.0.1' });
    const tag = `${process.pid}${Date.now().toString(36)}`;
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        operator.post('/admin/companies', { name: `Concurrent Operators ${i}`, domain: `op${tag}n${i}.test` }),
      ),
    );
    expect(results.map((res) => `${res.statusCode} ${res.statusCode === 201 ? '' : res.body}`)).toEqual(
      Array.from({ length: PARALLEL }, () => '201 '),
    );
    expectDistinctCodes(
      results.map((res) => res.json().company.code as string),
      'CONCURRENT',
    );
  });

  test('still answers a taken domain as before while codes are being allocated', async ({ api }) => {
    const domain = `dup${process.pid}${Date.now().toString(36)}.test`;
    const results = await Promise.all(
      [1, 2, 3].map(() => api.post('/api/companies', companyBody({ name: 'Duplicate Domains Ltd', domain_name: domain }))),
    );
    expect(results.map((res) => res.statusCode).sort()).toEqual([201, 422, 422]);
    for (const res of results.filter((r) => r.statusCode === 422)) {
      expect(res.json()).toEqual({ error: 'Validation failed.', messages: { domain_name: ['The domain name has already been taken.'] } });
    }
  });
});
