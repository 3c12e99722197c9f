// Pay item types across companies (docs/payroll.md, "Pay item types"): a child's types through
// company_id, another company's invisible and refused, scopes, and resolveTypes (the service the
// paystub and run modules use): built-ins and the company's own, never another company's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { expectTenantIsolation } from '../../../test/helpers/isolation.js';
import { sql } from '../../db/client.js';
import { BUILT_IN_PAY_ITEM_TYPES } from '../../tax-engine/pay-items.js';

const URL = '/api/pay-item-types';
const FORBIDDEN = 'Unauthorized or invalid company ID.';
const BUILT_INS = BUILT_IN_PAY_ITEM_TYPES.length;

let ctx: TestContext;
let acme: TestCompany;
let acmeChild: TestCompany;
let other: TestCompany;

const hazard = {
  code: 'hazard_allowance',
  name: 'Hazard allowance',
  treatment: 'earning',
  taxable: true,
  pensionable: true,
  nhf_base: false,
  nsitf_base: true,
  regular: true,
  cash: true,
};

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db, { name: 'Acme Items' });
  acmeChild = await createCompany(ctx.db, { name: 'Acme Items Child', createdBy: acme.id });
  other = await createCompany(ctx.db, { name: 'Other Items' });
  for (const body of [hazard, { code: 'canteen_dues', name: 'Canteen dues', treatment: 'deduction' }]) {
    const res = await as(ctx.app, acme).post(URL, body);
    expect(res.statusCode, res.body).toBe(201);
  }
});
afterAll(() => ctx?.close());

describe('companies: a child through company_id, another company never', () => {
  it("a parent creates and lists its child's types through company_id (query or body); the child sees them as its own", async () => {
    const made = await as(ctx.app, acme).post(URL, { ...hazard, code: 'child_only', company_id: acmeChild.id });
    expect(made.statusCode, made.body).toBe(201);
    const viaQuery = await as(ctx.app, acme).post(`${URL}?company_id=${acmeChild.id}`, { ...hazard, code: 'child_query' });
    expect(viaQuery.statusCode, viaQuery.body).toBe(201);
    const childCodes = (await as(ctx.app, acme).get(`${URL}?company_id=${acmeChild.id}`)).json().data.map((t: { code: string }) => t.code);
    expect(childCodes.slice(BUILT_INS)).toEqual(['child_only', 'child_query']);
    const ownCodes = (await as(ctx.app, acmeChild).get(URL)).json().data.map((t: { code: string }) => t.code);
    expect(ownCodes).toEqual(childCodes);
    // A company's types are its own: the parent's list does not show the child's, nor the child the parent's.
    const parentCodes = (await as(ctx.app, acme).get(URL)).json().data.map((t: { code: string }) => t.code);
    expect(parentCodes).not.toContain('child_only');
    expect(ownCodes).not.toContain('hazard_allowance');
  });

  it("another company's types are invisible, and it is refused with 403 wherever it names the company", async () => {
    const otherCodes = (await as(ctx.app, other).get(URL)).json().data.map((t: { code: string }) => t.code);
    expect(otherCodes).not.toContain('hazard_allowance');
    await expectTenantIsolation(
      ctx.app,
      other,
      acme,
      [
        { method: 'GET', url: `${URL}?company_id=${acme.id}` },
        { method: 'GET', url: `${URL}?company_id=${acmeChild.id}` },
        { method: 'GET', url: URL, payload: { company_id: acme.id } },
        { method: 'POST', url: URL, payload: { ...hazard, code: 'intruder_type', company_id: acme.id } },
        { method: 'POST', url: `${URL}?company_id=${acmeChild.id}`, payload: { ...hazard, code: 'intruder_type' } },
        // The child never acts for its parent.
      ],
      { tables: ['pay_item_types'] },
    );
    await expectTenantIsolation(
      ctx.app,
      acmeChild,
      acme,
      [
        { method: 'GET', url: `${URL}?company_id=${acme.id}` },
        { method: 'POST', url: URL, payload: { ...hazard, code: 'upward_type', company_id: acme.id } },
      ],
      { tables: ['pay_item_types'] },
    );
    const refused = await as(ctx.app, other).get(`${URL}?company_id=${acme.id}`);
    expect(refused.json()).toEqual({ error: FORBIDDEN });
  });
});

describe('scopes', () => {
  it('pay-item-types.read lists but does not create; pay-item-types.* does both', async () => {
    const reader = await createCompany(ctx.db, { scopes: ['pay-item-types.read'] });
    expect((await as(ctx.app, reader).get(URL)).statusCode).toBe(200);
    const refused = await as(ctx.app, reader).post(URL, { code: 'scoped_type', name: 'Scoped', treatment: 'earning' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'This token is not allowed to access this endpoint.' });
    const both = await createCompany(ctx.db, { scopes: ['pay-item-types.*'] });
    expect((await as(ctx.app, both).post(URL, { code: 'scoped_type', name: 'Scoped', treatment: 'earning' })).statusCode).toBe(201);
    const users = await createCompany(ctx.db, { scopes: ['users.*'] });
    expect((await as(ctx.app, users).get(URL)).statusCode).toBe(403);
  });
});

describe('resolveTypes (the service the paystub and run modules use)', () => {
  it("resolves built-ins and the company's own codes; another company's, unknown and malformed codes are absent", async () => {
    const { resolveTypes } = ctx.app.services.payItems.payItemTypes;
    const types = await resolveTypes(acme.id, ['bonus', 'hazard_allowance', 'canteen_dues', 'child_only', 'nope', 'Bad Code', '']);
    expect([...types.keys()].sort()).toEqual(['bonus', 'canteen_dues', 'hazard_allowance']);
    expect(types.get('bonus')).toBe(BUILT_IN_PAY_ITEM_TYPES[0]);
    expect(types.get('hazard_allowance')).toEqual({
      code: 'hazard_allowance',
      name: 'Hazard allowance',
      treatment: 'earning',
      taxable: true,
      pensionable: true,
      nhfBase: false,
      nsitfBase: true,
      regular: true,
      cash: true,
    });
    expect(types.get('canteen_dues')?.treatment).toBe('deduction');
    const child = await resolveTypes(acmeChild.id, ['child_only', 'hazard_allowance', 'arrears']);
    expect([...child.keys()].sort()).toEqual(['arrears', 'child_only']);
    expect((await resolveTypes(other.id, ['hazard_allowance'])).size).toBe(0);
  });

  it("reads inside the caller's transaction", async () => {
    const { resolveTypes } = ctx.app.services.payItems.payItemTypes;
    let seen: ReadonlyMap<string, unknown> = new Map();
    const rolledBack = await ctx.db
      .transaction(async (tx) => {
        await tx.execute(
          sql`INSERT INTO pay_item_types (company_id, code, name, treatment, taxable, pensionable, nhf_base, nsitf_base, regular, cash)
              VALUES (${other.id}, 'in_tx_only', 'In tx', 'earning', true, false, false, false, false, true)`,
        );
        seen = await resolveTypes(other.id, ['in_tx_only'], tx);
        tx.rollback();
      })
      .catch((error: unknown) => error);
    expect(rolledBack).toBeInstanceOf(Error);
    expect([...seen.keys()]).toEqual(['in_tx_only']);
    expect((await resolveTypes(other.id, ['in_tx_only'])).size).toBe(0);
  });
});
