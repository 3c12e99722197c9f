import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../helpers/factories.js';
import { as } from '../helpers/http.js';

let ctx: TestContext;
let parent: TestCompany;
let child: TestCompany;
let grandchild: TestCompany;
let sibling: TestCompany;
let stranger: TestCompany;

beforeAll(async () => {
  ctx = await createTestApp();
  parent = await createCompany(ctx.db);
  child = await createCompany(ctx.db, { createdBy: parent.id });
  grandchild = await createCompany(ctx.db, { createdBy: child.id });
  sibling = await createCompany(ctx.db, { createdBy: parent.id });
  stranger = await createCompany(ctx.db);
  await createUsers(ctx.db, grandchild.id, [{ firstName: 'Gina' }]);
});
afterAll(() => ctx.close());

const list = (company: TestCompany, query: string) => as(ctx.app, company).get(`/api/users${query}`);

describe('tenancy', () => {
  it('lets a company act for itself, its children and grandchildren', async () => {
    expect((await list(parent, `?company_id=${parent.id}`)).statusCode).toBe(200);
    expect((await list(parent, `?company_id=${child.id}`)).statusCode).toBe(200);
    const deep = await list(parent, `?company_id=${grandchild.id}`);
    expect(deep.statusCode).toBe(200);
    expect(deep.json().Resources[0].first_name).toBe('Gina');
  });

  it('refuses siblings, parents and strangers with the endpoint 403', async () => {
    for (const [caller, target] of [
      [child, sibling],
      [child, parent],
      [grandchild, child],
      [parent, stranger],
    ] as const) {
      const res = await list(caller, `?company_id=${target.id}`);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'Unauthorized or invalid company ID.' });
    }
  });

  it('answers a company that does not exist with the 403 where the endpoint has no 404', async () => {
    const res = await list(parent, '?company_id=999999');
    expect(res.statusCode).toBe(403);
  });

  it('rejects a company_id that is not an integer with 400', async () => {
    const res = await list(parent, '?company_id=abc');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/company_id/);
  });

  it('accepts company_id in a JSON body on GET', async () => {
    const res = await as(ctx.app, parent).request('GET', '/api/users', JSON.stringify({ company_id: grandchild.id }), {
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().Resources[0]?.first_name).toBe('Gina');
  });
});
