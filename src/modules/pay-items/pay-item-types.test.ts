// Pay item types through HTTP (docs/payroll.md, "Pay item types"): the list (built-ins, then the
// company's own by code), create with its defaults, every 422 (nothing written), concurrency,
// Idempotency-Key (a replay, and a lost answer), the cap. Across companies: *.companies.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { queryRows, sql } from '../../db/client.js';
import { BUILT_IN_PAY_ITEM_TYPES } from '../../tax-engine/pay-items.js';

const URL = '/api/pay-item-types';

let ctx: TestContext;
let acme: TestCompany;
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
      'loan_repayment',
      'advance_recovery',
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

  it('after a crash lost the answer of a committed create, a retry with its key gets the type, and nothing runs twice', async () => {
    const headers = { 'idempotency-key': 'pay-item-type-lost' };
    const body = { code: 'lost_answer', name: 'Lost answer', treatment: 'earning' };
    const first = await as(ctx.app, acme).post(URL, body, { headers });
    expect(first.statusCode, first.body).toBe(201);
    const [claim] = await queryRows<{ resource_kind: string; resource_id: string }>(
      ctx.db,
      sql`SELECT resource_kind, resource_id FROM idempotency_keys WHERE company_id = ${acme.id} AND key = 'pay-item-type-lost'`,
    );
    expect(claim).toEqual({ resource_kind: 'pay-item-type', resource_id: String(first.json().pay_item_type.id) });
    // What a kill -9 between the commit and the stored answer leaves: the mark, no answer.
    await ctx.db.execute(
      sql`UPDATE idempotency_keys SET status_code = NULL, response_body = NULL WHERE company_id = ${acme.id} AND key = 'pay-item-type-lost'`,
    );
    const retry = await as(ctx.app, acme).post(URL, body, { headers });
    expect([retry.statusCode, retry.headers['idempotent-replayed']]).toEqual([201, 'true']);
    expect(retry.json()).toEqual(first.json());
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
