// Money accepts decimal notation only, everywhere it is read (docs/security.md, "Input: NUL
// characters and out-of-range numbers"). The route schemas used to declare money as a number (or a number-or-
// string union with the number first), so the validator's type coercion turned "0x10" into 16,
// "1e5" into 100000, true into 1 and ["100"] into 100 before the feature's parser saw the value.
// Each money field of each route gets those values and must answer the field's own validation
// message in its family's shape, writing nothing; decimal text and JSON numbers still work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { invoiceBody } from '../helpers/companies-invoices.js';
import { createCompany, createUsers, type TestCompany } from '../helpers/factories.js';
import { as } from '../helpers/http.js';
import { paystubItem } from '../helpers/payroll.js';
import { runBody } from '../helpers/payroll-runs.js';
import { allowRedirectHosts } from '../helpers/wallet.js';
import { databaseFingerprint } from '../isolation/world.js';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted structurally
type Json = any;

/** What the validator used to turn into a number; each is a 4xx naming the field now. */
const NOT_DECIMAL: unknown[] = ['0x10', '1e5', '1E5', '0b11', '0o7', 'Infinity', ' 1e2 ', '1_000', true, ['100']];

let ctx: TestContext;
let acme: TestCompany;
let userId: number;
let userEmail: string;

beforeAll(async () => {
  ctx = await createTestApp({ paymentProvider: 'sandbox' });
  acme = await createCompany(ctx.db);
  const [user] = await createUsers(ctx.db, acme.id, [{ firstName: 'Mona', lastName: 'Money' }]);
  userId = user.id;
  userEmail = user.email;
  await allowRedirectHosts(ctx.db, acme.id, ['shop.test']);
});
afterAll(() => ctx?.close());

interface MoneyRoute {
  name: string;
  method: 'POST' | 'PUT';
  url: () => string;
  fields: string[];
  body: (field: string, value: unknown) => unknown;
  /** Problems with the answer for a refused value of `field` (empty when it is the field's refusal). */
  refused: (status: number, body: Json, field: string) => string[];
}

const label = (field: string) => field.replace(/^.*\./, '').replace(/_/g, ' ');
/** plain family: 422 {error: {field: [message naming it]}}. */
const plain = (status: number, body: Json, field: string) =>
  status === 422 && body?.error?.[field]?.some((message: string) => message.includes(label(field)))
    ? []
    : [`expected 422 {error: {${field}: [...]}}`];

const routes: MoneyRoute[] = [
  {
    name: 'U3',
    method: 'POST',
    url: () => '/api/users',
    fields: ['base_salary', 'allowances', 'annual_rent_paid', 'life_assurance_premium'],
    body: (field, value) => ({
      first_name: 'Nia',
      last_name: 'Number',
      personal_email: 'nia.number@mail.test',
      domain_name: acme.domain,
      user_types: 'Full-time',
      start_date: '2024-01-01',
      base_salary: '1000.00',
      roles: ['user'],
      [field]: value,
    }),
    refused: plain,
  },
  {
    name: 'U4',
    method: 'PUT',
    url: () => `/api/users/${userId}`,
    fields: ['base_salary', 'allowances', 'annual_rent_paid', 'life_assurance_premium'],
    body: (field, value) => ({ [field]: value }),
    refused: plain,
  },
  {
    name: 'P1 run overrides',
    method: 'POST',
    url: () => '/api/payroll-runs',
    fields: ['items.0.taxable_income', 'items.0.other_allowances', 'items.0.reimbursements'],
    body: (field, value) => runBody({ items: [{ user_id: userId, [field.split('.')[2]]: value }] }),
    refused: (status, body, field) =>
      status === 422 && body?.error?.[field]?.[0]?.includes(label(field)) ? [] : [`expected 422 {error: {${field}: [...]}}`],
  },
  {
    name: 'P2 items',
    method: 'POST',
    url: () => '/api/paystubs',
    fields: ['taxable_income', 'other_allowances', 'reimbursements'],
    body: (field, value) => ({ paystubs: [paystubItem(userId, { [field]: value } as never)] }),
    refused: (status, body, field) =>
      (status === 201 || status === 422) && body?.created_paystubs?.length === 0 && body?.failed_paystubs?.[0]?.errors?.[field]
        ? []
        : [`expected the item refused on ${field}`],
  },
  {
    name: 'S8',
    method: 'POST',
    url: () => `/api/custom-contributions/${acme.id}`,
    fields: ['employee_value', 'employer_value'],
    body: (field, value) => ({
      name: 'Plan',
      type: 'amount',
      apply_to: 'gross_pay',
      responsibility: 'both',
      employee_value: 10,
      employer_value: '10.50',
      frequency: 'per_paystub',
      [field]: value,
    }),
    refused: (status, body, field) =>
      status === 422 && typeof body?.error === 'string' && body.error.includes(field) ? [] : [`expected 422 {error} naming ${field}`],
  },
  {
    name: 'I3',
    method: 'POST',
    url: () => '/api/invoices',
    fields: ['total_amount', 'amount_requested'],
    body: (field, value) => invoiceBody(userEmail, { [field]: value }),
    refused: plain,
  },
  {
    name: 'W1',
    method: 'POST',
    url: () => '/api/wallet/top-up',
    fields: ['amount'],
    body: (_field, value) => ({ amount: value, customer_email: 'payer@mail.test', redirect_url: 'https://shop.test/done' }),
    refused: (status, body) =>
      status === 400 && body?.status === 'error' && body?.message === 'The amount must be a number.'
        ? []
        : ['expected 400 {status: "error", message: "The amount must be a number."}'],
  },
];

describe('money in decimal notation only: hex, exponents, booleans and arrays are the field’s refusal, nothing written', () => {
  for (const route of routes) {
    it(`${route.name}: ${route.fields.join(', ')}`, async () => {
      const problems: string[] = [];
      const before = await databaseFingerprint(ctx.db);
      for (const field of route.fields) {
        for (const value of NOT_DECIMAL) {
          const res = await as(ctx.app, acme).request(route.method, route.url(), route.body(field, value) as object);
          const body = res.json();
          for (const problem of route.refused(res.statusCode, body, field))
            problems.push(`${field}=${JSON.stringify(value)}: ${problem}: ${res.statusCode} ${res.body.slice(0, 300)}`);
        }
      }
      expect(problems).toEqual([]);
      expect(await databaseFingerprint(ctx.db)).toEqual(before);
    });
  }
});

describe('decimal text and JSON numbers are still money', () => {
  it('U4 takes "1,250,000.50", 2500 and "2500.5"; refuses misplaced thousands separators', async () => {
    for (const [value, stored] of [
      ['1,250,000.50', '1250000.50'],
      [2500, '2500.00'],
      ['2500.5', '2500.50'],
    ] as const) {
      const res = await as(ctx.app, acme).put(`/api/users/${userId}`, { base_salary: value });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().user.base_salary).toBe(stored);
    }
    const res = await as(ctx.app, acme).put(`/api/users/${userId}`, { base_salary: '1,2,3' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.base_salary).toEqual(['The base salary field must be a number.']);
  });

  it('S8 takes a decimal string and a JSON number, and 0', async () => {
    const res = await as(ctx.app, acme).post(`/api/custom-contributions/${acme.id}`, {
      name: 'Decimal plan',
      type: 'amount',
      apply_to: 'gross_pay',
      responsibility: 'both',
      employee_value: '12.50',
      employer_value: 0,
      frequency: 'per_paystub',
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const created = res.json().data ?? res.json();
    expect([created.employee_value, created.employer_value].map(Number)).toEqual([12.5, 0]);
  });
});
