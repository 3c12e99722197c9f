// Pay item types through HTTP (docs/payroll.md, "Pay item types"): the list (built-ins, then the
// company's own by code), create with its defaults, every 422 (nothing written), a child company's
// types through company_id, another company's invisible, scopes, Idempotency-Key, the cap, and the
// service's resolveTypes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { expectTenantIsolation } from '../../../test/helpers/isolation.js';
import { queryRows, sql } from '../../db/client.js';
import { BUILT_IN_PAY_ITEM_TYPES } from '../../tax-engine/pay-items.js';

const URL = '/api/pay-item-types';
const FORBIDDEN = 'Unauthorized or invalid company ID.';

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

const builtInJson = BUILT_IN_PAY_ITEM_TYPES.map((type) => ({
  id: null,
  code: type.code,
  name: type.name,
  treatment: type.treatment,
  taxable: type.taxable,
  pensionable: type.pensionable,
  nhf_base: type.nhfBase,
  nsitf_base: type.nsitfBase,
  regular: type.regular,
  cash: type.cash,
  built_in: true,
  created_at: null,
}));

async function ownCount(companyId: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM pay_item_types WHERE company_id = ${companyId}`);
  return row.n;
}

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db, { name: 'Acme Items' });
  acmeChild = await createCompany(ctx.db, { name: 'Acme Items Child', createdBy: acme.id });
  other = await createCompany(ctx.db, { name: 'Other Items' });
});
afterAll(() => ctx?.close());

describe('GET /api/pay-item-types', () => {
  it('lists every built-in type first, in catalog order, with its flags and no id', async () => {
    const res = await as(ctx.app, other).get(URL);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Pay item types retrieved successfully.', data: builtInJson });
    expect(res.json().data.map((type: { code: string }) => type.code)).toEqual([
      'bonus',
      'thirteenth_month',
      'leave_allowance',
      'overtime',
      'commission',
      'arrears',
      'benefit_in_kind',
      'reimbursement',
      'loss_of_office',
      'deduction',
    ]);
  });
});

describe('POST /api/pay-item-types', () => {
  it('creates a type of the company’s own (201) and lists it after the built-ins, own types by code', async () => {
    const res = await as(ctx.app, acme).post(URL, hazard);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.message).toBe('Pay item type created successfully.');
    expect(body.pay_item_type).toEqual({
      ...hazard,
      id: expect.any(Number),
      built_in: false,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
    });
    const second = await as(ctx.app, acme).post(URL, { code: 'canteen_dues', name: '  Canteen dues  ', treatment: 'deduction' });
    expect(second.statusCode, second.body).toBe(201);
    const list = (await as(ctx.app, acme).get(URL)).json().data;
    expect(list.slice(0, builtInJson.length)).toEqual(builtInJson);
    expect(list.slice(builtInJson.length)).toEqual([second.json().pay_item_type, body.pay_item_type]);
    expect(second.json().pay_item_type.name).toBe('Canteen dues');
  });

  it('fills the flags left out with the plain case of the treatment', async () => {
    const earning = await as(ctx.app, acme).post(URL, { code: 'night_shift', name: 'Night shift', treatment: 'earning' });
    expect(earning.statusCode, earning.body).toBe(201);
    expect(earning.json().pay_item_type).toMatchObject({
      taxable: true,
      pensionable: false,
      nhf_base: false,
      nsitf_base: false,
      regular: false,
      cash: true,
    });
    const deduction = await as(ctx.app, acme).post(URL, { code: 'union_dues', name: 'Union dues', treatment: 'deduction', regular: true });
    expect(deduction.statusCode, deduction.body).toBe(201);
    expect(deduction.json().pay_item_type).toMatchObject({
      treatment: 'deduction',
      taxable: false,
      pensionable: false,
      nhf_base: false,
      nsitf_base: false,
      regular: true,
      cash: true,
    });
    const inKind = await as(ctx.app, acme).post(URL, { code: 'company_car', name: 'Company car', treatment: 'earning', cash: false });
    expect(inKind.statusCode, inKind.body).toBe(201);
    expect(inKind.json().pay_item_type).toMatchObject({ taxable: true, cash: false });
  });

  const long = (n: number) => `a${'b'.repeat(n - 1)}`;
  const refusals: [string, Record<string, unknown>, Record<string, string[]>][] = [
    ['no code', { name: 'X', treatment: 'earning' }, { code: ['The code field is required.'] }],
    ['an upper-case code', { ...hazard, code: 'Hazard' }, { code: ['The code field format is invalid.'] }],
    ['a code starting with a digit', { ...hazard, code: '1hazard' }, { code: ['The code field format is invalid.'] }],
    ['a one-letter code', { ...hazard, code: 'h' }, { code: ['The code field format is invalid.'] }],
    ['a code of 41 characters', { ...hazard, code: long(41) }, { code: ['The code field format is invalid.'] }],
    ['a code with a hyphen', { ...hazard, code: 'hazard-pay' }, { code: ['The code field format is invalid.'] }],
    ['a built-in code', { ...hazard, code: 'bonus' }, { code: ['The code field must not be the code of a built-in type.'] }],
    [
      'a built-in deduction code',
      { ...hazard, code: 'deduction', treatment: 'deduction', taxable: false, pensionable: false, nsitf_base: false },
      { code: ['The code field must not be the code of a built-in type.'] },
    ],
    ['a code kept for loans', { ...hazard, code: 'loan_repayment' }, { code: ['The code field must not be the code of a built-in type.'] }],
    ['no name', { code: 'no_name', treatment: 'earning' }, { name: ['The name field is required.'] }],
    ['a blank name', { ...hazard, code: 'blank_name', name: '   ' }, { name: ['The name field is required.'] }],
    [
      'a name of 101 characters',
      { ...hazard, code: 'long_name', name: 'n'.repeat(101) },
      { name: ['The name field must not be greater than 100 characters.'] },
    ],
    ['no treatment', { code: 'no_treatment', name: 'X' }, { treatment: ['The treatment field is required.'] }],
    [
      'an unknown treatment',
      { ...hazard, code: 'bad_treatment', treatment: 'benefit' },
      { treatment: ['The selected treatment is invalid.'] },
    ],
    [
      'a flag that is not a boolean',
      { ...hazard, code: 'bad_flag', taxable: 'yes' },
      { taxable: ['The taxable field must be true or false.'] },
    ],
    ['a flag that is an object', { ...hazard, code: 'bad_flag', cash: {} }, { cash: ['The cash field must be true or false.'] }],
  ];
  const deductionFlag = (field: string) =>
    `A deduction is taken from net pay after tax and is in no statutory base: the ${field.replace(/_/g, ' ')} field must be false.`;
  for (const field of ['taxable', 'pensionable', 'nhf_base', 'nsitf_base'])
    refusals.push([
      `a deduction with ${field}`,
      { code: `dues_${field}`, name: 'Dues', treatment: 'deduction', [field]: true },
      { [field]: [deductionFlag(field)] },
    ]);
  refusals.push(
    [
      'a deduction taxable and pensionable at once',
      { code: 'dues_both', name: 'Dues', treatment: 'deduction', taxable: true, pensionable: true },
      { taxable: [deductionFlag('taxable')], pensionable: [deductionFlag('pensionable')] },
    ],
    [
      'a deduction that is not cash',
      { code: 'dues_not_cash', name: 'Dues', treatment: 'deduction', cash: false },
      { cash: ['A deduction is taken from pay: the cash field must be true.'] },
    ],
    [
      'a non-cash earning that is not taxed',
      { code: 'free_lunch', name: 'Free lunch', treatment: 'earning', cash: false, taxable: false },
      { taxable: ['A non-cash earning must be taxable: it is not paid, so untaxed it would change nothing.'] },
    ],
  );

  it.each(refusals)('refuses %s: 422 naming the field, nothing written', async (_what, body, fields) => {
    const before = await ownCount(acme.id);
    const res = await as(ctx.app, acme).post(URL, body);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({ error: fields });
    expect(await ownCount(acme.id)).toBe(before);
  });

  it('refuses a code the company already has (422 on code), and the same code in another company is its own', async () => {
    const body = { code: 'site_allowance', name: 'Site allowance', treatment: 'earning' };
    expect((await as(ctx.app, acme).post(URL, body)).statusCode).toBe(201);
    const before = await ownCount(acme.id);
    const again = await as(ctx.app, acme).post(URL, { ...body, name: 'Another name' });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({ error: { code: ['The code has already been taken.'] } });
    expect(await ownCount(acme.id)).toBe(before);
    const elsewhere = await as(ctx.app, other).post(URL, body);
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);
  });

  it('two concurrent creates of one code: one 201, one 422, never a 500', async () => {
    const body = { code: 'race_bonus', name: 'Race', treatment: 'earning' };
    const answers = await Promise.all([as(ctx.app, acme).post(URL, body), as(ctx.app, acme).post(URL, body)]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 422]);
  });

  it('answers a retry with the same Idempotency-Key from the first answer: one type', async () => {
    const headers = { 'idempotency-key': 'pay-item-type-once' };
    const body = { code: 'retried_type', name: 'Retried', treatment: 'earning' };
    const first = await as(ctx.app, acme).post(URL, body, { headers });
    const second = await as(ctx.app, acme).post(URL, body, { headers });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    const [row] = await queryRows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM pay_item_types WHERE company_id = ${acme.id} AND code = 'retried_type'`,
    );
    expect(row.n).toBe(1);
  });

  it('keeps a company to 200 types of its own', async () => {
    const capped = await createCompany(ctx.db, { name: 'Capped Items' });
    await ctx.db.execute(
      sql`INSERT INTO pay_item_types (company_id, code, name, treatment, taxable, pensionable, nhf_base, nsitf_base, regular, cash)
          SELECT ${capped.id}, 'type_' || n, 'Type ' || n, 'earning', true, false, false, false, false, true FROM generate_series(1, 199) AS n`,
    );
    const last = await as(ctx.app, capped).post(URL, { code: 'type_200', name: 'Type 200', treatment: 'earning' });
    expect(last.statusCode, last.body).toBe(201);
    const over = await as(ctx.app, capped).post(URL, { code: 'type_201', name: 'Type 201', treatment: 'earning' });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toEqual({ error: { code: ['A company may have at most 200 pay item types of its own.'] } });
    expect(await ownCount(capped.id)).toBe(200);
    expect((await as(ctx.app, capped).get(URL)).json().data).toHaveLength(builtInJson.length + 200);
  });
});

describe('companies: a child through company_id, another company never', () => {
  it("a parent creates and lists its child's types through company_id (query or body); the child sees them as its own", async () => {
    const made = await as(ctx.app, acme).post(URL, { ...hazard, code: 'child_only', company_id: acmeChild.id });
    expect(made.statusCode, made.body).toBe(201);
    const viaQuery = await as(ctx.app, acme).post(`${URL}?company_id=${acmeChild.id}`, { ...hazard, code: 'child_query' });
    expect(viaQuery.statusCode, viaQuery.body).toBe(201);
    const childCodes = (await as(ctx.app, acme).get(`${URL}?company_id=${acmeChild.id}`)).json().data.map((t: { code: string }) => t.code);
    expect(childCodes.slice(builtInJson.length)).toEqual(['child_only', 'child_query']);
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
