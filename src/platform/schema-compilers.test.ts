// Route schemas compiled at a route part's first call (schema-compilers.ts): what Fastify reads from
// a validator (errors, schemaEnv) is the compiled one's, and every schema of the app compiles.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany } from '../../test/helpers/factories.js';
import { as } from '../../test/helpers/http.js';
import { compileEveryRouteSchema, schemaCompilers } from './schema-compilers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx?.close());

type Validate = ((data: unknown) => boolean) & { errors?: Array<{ message?: string }> | null; schemaEnv?: unknown };

it('a validator is compiled at its first call and answers as Ajv does', () => {
  const build = schemaCompilers.buildValidator({}, { customOptions: { coerceTypes: 'array' }, plugins: [] } as never) as unknown as (
    route: object,
  ) => Validate;
  const schema = { type: 'object', properties: { limit: { type: 'integer', minimum: 1 } }, required: ['limit'] };
  const validate = build({ schema, method: 'GET', url: '/lazy-probe', httpPart: 'querystring' });
  expect(validate.errors).toBeUndefined();
  expect(validate.schemaEnv).toBeDefined();
  const query = { limit: '3' };
  expect(validate(query)).toBe(true);
  expect(query).toEqual({ limit: 3 });
  expect(validate({ limit: 0 })).toBe(false);
  expect(validate.errors?.[0]?.message).toBe('must be >= 1');
  expect(validate({})).toBe(false);
  expect(validate.errors?.[0]?.message).toBe("must have required property 'limit'");
});

it("every route part of the app compiles (none is left to fail at a route's first request)", async () => {
  expect(ctx.app.routeCatalog.length).toBeGreaterThan(50);
  compileEveryRouteSchema();
  expect(compileEveryRouteSchema()).toBe(0);
  // The app answers through the compiled functions: a refused query, then a serialized page.
  const company = await createCompany(ctx.db);
  const refused = await as(ctx.app, company).get('/api/users?per_page=0');
  expect(refused.statusCode).toBe(422);
  const listed = await as(ctx.app, company).get('/api/users');
  expect(listed.statusCode).toBe(200);
  expect(listed.json().totalResults).toBe(0);
});
