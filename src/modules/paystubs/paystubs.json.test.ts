// P1's page written as JSON text by the database (paystubs.json.repo.ts, `listText`) must be, byte for
// byte, what the route's serializer (fast-json-stringify, compiled from the route's own response
// schema by Fastify's compiler) writes for the JS path's object (`list`): same keys, same order,
// same numbers. The fixture has every field kind: pay items and loan repayments (the loan's balance
// after each, across two paystubs), custom contribution records with and without their rule,
// nulls, a leaver, a deleted user, a paystub whose user is not the company's, unpaid, held, failed,
// processing, paid and cancelled paystubs with and without a pinned destination, strings that need
// escaping, microsecond instants and amounts across the number formats (negative, zero, and from
// 1e13 and 1e15, where the text comes from float8). Both writers run on both databases here, though
// only a PostgreSQL server uses the SQL one in production (paystubs.service.ts).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { routeSerializer, WEIRD } from '../../../test/helpers/json-text.js';
import { paystubItem, postPaystubs } from '../../../test/helpers/payroll.js';
import { queryRows } from '../../db/client.js';
import { ContributionSchema, PaystubItemSchema, PaystubSchema, PaystubsPage, RecordSchema } from './paystubs.schemas.js';
import { createPaystubsService, type PaystubListQuery } from './paystubs.service.js';

let ctx: TestContext;
let acme: TestCompany;
let other: TestCompany;
const RUNS = ['RUN-JSON-A', 'RUN-JSON-B', 'RUN-JSON-C'];

// The route's 200 serializer, compiled as Fastify compiles it: the route's schema with the shared
// schemas paystubsRoutes registers.
const shared = {
  CustomContributionRecord: RecordSchema,
  PaystubItem: PaystubItemSchema,
  Paystub: PaystubSchema,
  Contribution: ContributionSchema,
};
const serialize = routeSerializer(shared, PaystubsPage, '/api/paystubs');

// Amounts through every branch of the number's text: below 1e13 (trimmed numeric text), from 1e13
// (float8, fixed) and from 1e15 (float8's exponent form rewritten), a tie at 1e15 (…456.25 → …456.2),
// and values whose double prints otherwise (99999999999999.99 → …99.98).
const AMOUNTS = [
  '100000.50',
  '0.00',
  '0.01',
  '80000.25',
  '9999999999999.99',
  '12345678901234.56',
  '99999999999999.99',
  '1234567890123456.25',
  '9999999999999999.99',
  '1000000000000000.00',
  '4503599627370497.50',
];

beforeAll(async () => {
  ctx = await createTestApp();
  const { db } = ctx;
  acme = await createCompany(db);
  other = await createCompany(db);
  const people = await createUsers(db, acme.id, [{}, { userType: 'Contract' }, {}, {}]);
  const [stranger] = await createUsers(db, other.id, [{}]);
  const [plain, leaver, deleted, odd] = people;
  await db.execute(sql`UPDATE users SET exit_date = '2025-06-30', exit_reason = 'resignation' WHERE id = ${leaver.id}`);
  await db.execute(sql`UPDATE users SET deleted_at = '2026-02-03 04:05:06.789123+00', title = ${WEIRD} WHERE id = ${deleted.id}`);
  await db.execute(
    sql`UPDATE users SET user_type_id = NULL, title = NULL, department = 'Ops "A"', level = NULL, office_location = ${WEIRD},
          payment_frequency = 'monthly' WHERE id = ${odd.id}`,
  );
  const userIds = [plain.id, leaver.id, deleted.id, odd.id, stranger.id];
  // Paystubs of three runs, one per user and month; statuses, holds, failures, payments, destinations
  // and amounts vary with n.
  for (const [r, run] of RUNS.entries()) {
    await db.execute(
      sql`INSERT INTO paystubs (company_id, user_id, pay_period_start, pay_period_end, taxable_income, reimbursements, other_allowances,
            gross_pay, net_pay, tax_withheld, pension_contribution, nhf_contribution, nhis_contribution, other_deductions,
            employer_pension_contribution, nhis_employer_contribution, employer_cost, tax_regime, status, transaction_id, paid_at,
            payment_reference, failure_reason, hold_reason, destination_pinned_at, destination_bank_code, destination_bank_name,
            destination_account_number, destination_account_name, paye_state, irregular_gross, tax_true_up, off_cycle, created_at, updated_at)
          SELECT ${acme.id}, u, make_date(2026, ${r + 1}, 1), make_date(2026, ${r + 1}, 28),
                 a[1 + n % 11]::numeric, a[1 + (n + 5) % 11]::numeric, 10, a[1 + (n + 2) % 11]::numeric, 80000.25, 9000, 8000.1, 2500.1, 0, 0.5,
                 10000, 0, a[1 + (n + 3) % 11]::numeric, CASE WHEN n % 2 = 0 THEN 'pita' ELSE 'nta2025' END,
                 (ARRAY['unpaid', 'held', 'failed', 'processing', 'paid', 'cancelled'])[1 + (n + ${r}) % 6], ${run},
                 CASE WHEN (n + ${r}) % 6 = 4 THEN '2026-03-04 05:06:07.891234+00'::timestamptz END,
                 CASE WHEN (n + ${r}) % 6 IN (2, 3, 4) THEN 'ref-' || ${run} || '-' || n END,
                 CASE WHEN (n + ${r}) % 6 = 2 THEN ${WEIRD} END,
                 CASE WHEN (n + ${r}) % 6 = 1 THEN 'Bank details changed' END,
                 CASE WHEN (n + ${r}) % 6 >= 2 THEN '2026-03-01 00:00:00.5+00'::timestamptz END,
                 CASE WHEN (n + ${r}) % 6 >= 2 THEN '044' END, CASE WHEN (n + ${r}) % 6 >= 3 THEN 'Access Bank' END,
                 CASE WHEN (n + ${r}) % 6 >= 2 THEN '0123456789' END, CASE WHEN (n + ${r}) % 6 >= 2 THEN ${WEIRD} END,
                 CASE WHEN n % 3 <> 0 THEN 'LA' END, CASE WHEN n % 2 = 0 THEN 0 ELSE 1500.5 END,
                 CASE WHEN n % 3 = 0 THEN -1234.5 WHEN n % 3 = 1 THEN 0 ELSE 99.99 END, n = 4,
                 '2026-01-02 03:04:05.123456+00'::timestamptz + n * interval '1 day', '2026-11-22 10:15:00+00'
          FROM unnest(${`{${userIds.join(',')}}`}::int[]) WITH ORDINALITY AS t(u, n), (SELECT ${`{${AMOUNTS.join(',')}}`}::text[] AS a) s`,
    );
  }
  // A loan of the first user, repaid on each of their paystubs (the balance after each), and pay items.
  await db.execute(
    sql`INSERT INTO loans (company_id, user_id, kind, principal, balance, instalment, start_period)
        VALUES (${acme.id}, ${plain.id}, 'loan', 50000, 50000, 20000, '2026-01')`,
  );
  await db.execute(
    sql`INSERT INTO paystub_items (company_id, paystub_id, position, code, name, treatment, amount, taxable_amount, taxable, pensionable,
          nhf_base, nsitf_base, regular, cash, description, origin_period, loan_id, loan_interest)
        SELECT p.company_id, p.id, k, CASE k WHEN 0 THEN 'bonus' WHEN 1 THEN 'benefit_in_kind' ELSE 'loan_repayment' END,
               CASE k WHEN 0 THEN 'Bonus' WHEN 1 THEN ${WEIRD} ELSE 'Loan repayment' END,
               CASE WHEN k = 2 THEN 'deduction' ELSE 'earning' END, CASE k WHEN 0 THEN 1500.5 WHEN 1 THEN 12345678901234.56 ELSE 20000.1 END,
               CASE k WHEN 0 THEN 1500.5 WHEN 1 THEN 0 ELSE 0 END, k = 0, k = 0, false, false, k = 1, k <> 1,
               CASE WHEN k = 1 THEN 'car "pool"' END, CASE WHEN k = 0 THEN '2025-12' END,
               CASE WHEN k = 2 THEN l.id END, CASE WHEN k = 2 THEN 1000.05 END
        FROM paystubs p CROSS JOIN generate_series(0, 2) AS k
        LEFT JOIN loans l ON l.user_id = p.user_id AND l.company_id = p.company_id
        WHERE p.company_id = ${acme.id} AND (k < 2 AND p.user_id <> ${odd.id} OR k = 2 AND l.id IS NOT NULL)`,
  );
  // Records on every other paystub: one with its rule, one whose rule was deleted (null).
  await db.execute(
    sql`INSERT INTO custom_contributions (company_id, name, type, apply_to, employee_responsibility, employee_value, frequency)
        VALUES (${acme.id}, 'Welfare', 'amount', 'gross_pay', true, 1500.5, 'per_paystub')`,
  );
  await db.execute(
    sql`INSERT INTO custom_contribution_records (company_id, contribution_id, custom_contribution_id, user_id, name, employee_contribution,
          employer_contribution, created_at, updated_at)
        SELECT p.company_id, p.id, CASE WHEN k = 0 THEN (SELECT min(id) FROM custom_contributions WHERE company_id = ${acme.id}) END,
               p.user_id, CASE WHEN k = 0 THEN 'Welfare' ELSE ${WEIRD} END, CASE WHEN k = 0 THEN 1500.5 ELSE 9999999999999999.99 END,
               CASE WHEN k = 0 THEN 0 ELSE 0.1 END, '2026-01-02 03:04:05.123456+00', '2026-01-02 03:04:05.999999+00'
        FROM paystubs p CROSS JOIN generate_series(0, 1) AS k WHERE p.company_id = ${acme.id} AND p.id % 2 = 0`,
  );
});
afterAll(() => ctx.close());

const service = () => ctx.app.services.paystubs.paystubs;
/** The service as a newly started instance has it: nothing kept in memory (paystubs.list-text.service.ts). */
const newInstance = () =>
  createPaystubsService({
    db: ctx.db,
    config: { publicUrl: 'http://payroll.test' },
    recordRun: () => Promise.reject(new Error('read only')),
  });

/** The JS path's bytes alone (filters the database does not write as text). */
async function bothWritersJs(companyId: number, query: PaystubListQuery, rawQuery: Record<string, unknown>) {
  return { js: serialize(await service().list(companyId, query, rawQuery)) };
}

/** The JS path's bytes (the object through the route's serializer) and the database's text, for the same request. */
async function bothWriters(companyId: number, query: PaystubListQuery, rawQuery: Record<string, unknown>) {
  const object = await service().list(companyId, query, rawQuery);
  return { js: serialize(object), text: await service().listText(companyId, query, rawQuery), object };
}

describe('P1 page as JSON text written by the database', () => {
  const cases: [string, Omit<PaystubListQuery, 'page' | 'per_page'>][] = [
    ['no filter', {}],
    ['one run', { transaction_id: RUNS[1] }],
    ['another run', { transaction_id: RUNS[0] }],
    ['a run that does not exist', { transaction_id: 'RUN-NONE' }],
  ];
  for (const [label, filters] of cases) {
    it(`is what the route's serializer writes for the JS path, every page and past the end: ${label}`, async () => {
      let pages = 0;
      for (let page = 1; page <= 7; page++) {
        const query = { ...filters, page, per_page: 3 };
        const { js, text, object } = await bothWriters(acme.id, query, { ...filters, per_page: '3', page: String(page) });
        // Parsed and written again (same values), then raw (same key order, same number texts).
        expect(JSON.stringify(JSON.parse(text))).toBe(JSON.stringify(JSON.parse(js)));
        expect(text).toBe(js);
        // The console's object written by JSON.stringify is the same document too.
        expect(JSON.stringify(object)).toBe(js);
        if (object.data.data.length > 0) pages++;
      }
      if (label === 'no filter') expect(pages).toBe(5);
    });
  }

  it('covers what it claims: loan balances, records with and without their rule, leaver, deleted and foreign users, every number form', async () => {
    const { text } = await bothWriters(acme.id, { per_page: 100 }, { per_page: 100 });
    const listed = JSON.parse(text).data.data as Record<string, unknown>[];
    const items = listed.flatMap((paystub) => paystub.items as Record<string, unknown>[]);
    const balances = new Set(items.filter((item) => item.loan_id !== null).map((item) => item.loan_balance_after));
    expect(balances.size).toBeGreaterThan(1);
    expect(items.some((item) => item.loan_balance_after === null)).toBe(true);
    const records = listed.flatMap(
      (paystub) =>
        (paystub.contribution as { custom_contribution_records: { custom_contribution_id: unknown }[] }).custom_contribution_records,
    );
    expect(
      records.some((record) => record.custom_contribution_id === null) && records.some((record) => record.custom_contribution_id !== null),
    ).toBe(true);
    const users = listed.map((paystub) => paystub.user as { is_active: boolean; deleted_at: string | null } | null);
    expect(users).toContain(null);
    expect(users.some((u) => u?.is_active === false) && users.some((u) => u?.deleted_at !== null && u !== null)).toBe(true);
    expect(new Set(listed.map((paystub) => paystub.status))).toEqual(
      new Set(['unpaid', 'held', 'failed', 'processing', 'paid', 'cancelled']),
    );
    expect(
      listed.some((paystub) => paystub.payment_destination === null) && listed.some((paystub) => paystub.payment_destination !== null),
    ).toBe(true);
    for (const number of [
      '10000000000000000',
      '1234567890123456.2',
      '12345678901234.56',
      '99999999999999.98',
      '4503599627370498',
      '-1234.5',
      '"taxable_income":0,',
    ]) {
      expect(text).toContain(number);
    }
  });

  it('an empty company: an empty page with total 0, unfiltered and by run', async () => {
    const empty = await createCompany(ctx.db);
    for (const query of [{ per_page: 20 }, { transaction_id: RUNS[0] }]) {
      const { js, text } = await bothWriters(empty.id, query, query);
      expect(text).toBe(js);
      expect(JSON.parse(text).data.total).toBe(0);
    }
  });

  it('the status and user filters answer through HTTP what the serializer writes (the JS path on both databases)', async () => {
    const response = await as(ctx.app, acme).get('/api/paystubs?status=failed&per_page=2');
    const { js } = await bothWritersJs(acme.id, { status: 'failed', per_page: 2 }, { status: 'failed', per_page: 2 });
    expect(response.body).toBe(js);
  });

  it('P1 answers that document through HTTP, as text on a PostgreSQL server and serialized on PGlite', async () => {
    for (const url of [`/api/paystubs?per_page=4&page=2`, `/api/paystubs?transaction_id=${RUNS[1]}&per_page=2`, '/api/paystubs?page=3']) {
      const response = await as(ctx.app, acme).get(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      const params = new URL(url, 'http://x').searchParams;
      const rawQuery: Record<string, unknown> = {};
      for (const [name, value] of params) rawQuery[name] = /^\d+$/.test(value) ? Number(value) : value;
      const query = rawQuery as PaystubListQuery;
      const { js, text } = await bothWriters(acme.id, query, rawQuery);
      expect(response.body).toBe(js);
      expect(response.body).toBe(text);
    }
  });
});

// Each paystub's text but its user is kept from the first read after a change (paystubs.listed-text.repo.ts,
// migrations/0272_paystub_listed_texts.sql): every change must be answered at once, and a kept text
// from before a change must never be used, however late it was written.
describe("P1's kept texts", () => {
  const everything = { per_page: 100 };
  const keptRows = () =>
    queryRows<{ paystub_id: number; stamp: number; format_key: number; head: string }>(
      ctx.db,
      sql`SELECT paystub_id, stamp, format_key, head FROM paystub_listed_texts WHERE company_id = ${acme.id} ORDER BY paystub_id`,
    );
  const stampOf = async (id: number) =>
    (await queryRows<{ listed_stamp: number }>(ctx.db, sql`SELECT listed_stamp FROM paystubs WHERE id = ${id}`))[0].listed_stamp;
  /**
   * The whole list through both writers, equal byte for byte, as the app's instance answers it (its
   * kept texts first) and as a new instance does (the database's kept texts only); the text.
   */
  async function answeredAsSerialized(): Promise<string> {
    const { js, text } = await bothWriters(acme.id, everything, everything);
    expect(text).toBe(js);
    expect(await newInstance().listText(acme.id, everything, everything)).toBe(js);
    return text;
  }
  const paystubIds = async (loan: boolean) =>
    (
      await queryRows<{ id: number }>(
        ctx.db,
        sql`SELECT p.id FROM paystubs p WHERE p.company_id = ${acme.id}
              AND ${loan ? sql`` : sql`NOT`} EXISTS (SELECT 1 FROM paystub_items i WHERE i.paystub_id = p.id AND i.loan_id IS NOT NULL) ORDER BY p.id`,
      )
    ).map((row) => row.id);

  it('keeps the text of every paystub but those repaying a loan, and answers from what it kept', async () => {
    await answeredAsSerialized();
    const kept = await keptRows();
    expect(kept.map((row) => row.paystub_id)).toEqual(await paystubIds(false));
    expect((await paystubIds(true)).length).toBeGreaterThan(0);
    const [first] = kept;
    await ctx.db.execute(
      sql`UPDATE paystub_listed_texts SET head = replace(head, '"status":"', '"status":"kept-') WHERE paystub_id = ${first.paystub_id}`,
    );
    expect(await newInstance().listText(acme.id, everything, everything)).toContain('"status":"kept-');
    await ctx.db.execute(sql`DELETE FROM paystub_listed_texts WHERE paystub_id = ${first.paystub_id}`);
    await answeredAsSerialized();
  });

  it('answers every change to a paystub, its items, its records and its user at once', async () => {
    await answeredAsSerialized();
    const [held, withItems, withRecords] = await paystubIds(false);
    const changes = [
      sql`UPDATE paystubs SET status = 'held', hold_reason = 'Kept texts' WHERE id = ${held}`,
      sql`INSERT INTO paystub_items (company_id, paystub_id, position, code, name, treatment, amount, taxable_amount, taxable, pensionable,
            nhf_base, nsitf_base, regular, cash) VALUES (${acme.id}, ${withItems}, 7, 'bonus', 'Late bonus', 'earning', 42.5, 42.5, true, false, false, false, false, true)`,
      sql`UPDATE paystub_items SET amount = amount + 1, name = 'Later bonus' WHERE paystub_id = ${withItems} AND position = 7`,
      sql`DELETE FROM paystub_items WHERE paystub_id = ${withItems} AND position = 7`,
      sql`INSERT INTO custom_contribution_records (company_id, contribution_id, user_id, name, employee_contribution, employer_contribution)
            SELECT company_id, id, user_id, 'Late scheme', 12.5, 0 FROM paystubs WHERE id = ${withRecords}`,
      sql`UPDATE custom_contribution_records SET employee_contribution = 13.75 WHERE contribution_id = ${withRecords} AND name = 'Late scheme'`,
      sql`DELETE FROM custom_contribution_records WHERE contribution_id = ${withRecords} AND name = 'Late scheme'`,
      sql`UPDATE custom_contribution_records SET custom_contribution_id = NULL WHERE company_id = ${acme.id}`,
      sql`UPDATE users SET first_name = 'Renamed', exit_date = '2020-01-31' WHERE id = (SELECT user_id FROM paystubs WHERE id = ${held})`,
    ];
    for (const change of changes) {
      const before = await answeredAsSerialized();
      await ctx.db.execute(change);
      expect(await answeredAsSerialized()).not.toBe(before);
    }
  });

  it('never uses a text kept from before a change, nor one of another format', async () => {
    await answeredAsSerialized();
    const [row] = await keptRows();
    const stale = row.head.replace('"status":"', '"status":"stale-');
    await ctx.db.execute(sql`UPDATE paystubs SET failure_reason = 'changed after the read' WHERE id = ${row.paystub_id}`);
    expect(await stampOf(row.paystub_id)).toBe(row.stamp + 1);
    // A read that wrote its text from the snapshot before the change and kept it after: its stamp is the old one.
    await ctx.db.execute(sql`UPDATE paystub_listed_texts SET stamp = ${row.stamp}, head = ${stale} WHERE paystub_id = ${row.paystub_id}`);
    expect(await answeredAsSerialized()).not.toContain('stale-');
    const [rewritten] = await keptRows();
    expect(rewritten.stamp).toBe(row.stamp + 1);
    await ctx.db.execute(
      sql`UPDATE paystub_listed_texts SET format_key = format_key + 1, head = ${stale.replace('"failure_reason":', '"x":1,"failure_reason":')}
          WHERE paystub_id = ${row.paystub_id}`,
    );
    expect(await answeredAsSerialized()).not.toContain('stale-');
  });

  it("moves a paystub's stamp for items and records written after it, not with it", async () => {
    const [userId] = (await queryRows<{ id: number }>(ctx.db, sql`SELECT id FROM users WHERE company_id = ${other.id}`)).map((u) => u.id);
    const insertItem = (paystubId: number, position: number) =>
      sql`INSERT INTO paystub_items (company_id, paystub_id, position, code, name, treatment, amount, taxable_amount, taxable, pensionable,
            nhf_base, nsitf_base, regular, cash) VALUES (${other.id}, ${paystubId}, ${position}, 'bonus', 'Bonus', 'earning', 1, 1, true, false, false, false, false, true)`;
    const insertRecord = (paystubId: number) =>
      sql`INSERT INTO custom_contribution_records (company_id, contribution_id, user_id, name, employee_contribution, employer_contribution)
            VALUES (${other.id}, ${paystubId}, ${userId}, 'Scheme', 1, 0)`;
    const id = await ctx.db.transaction(async (tx) => {
      const [paystub] = await queryRows<{ id: number }>(
        tx,
        sql`INSERT INTO paystubs (company_id, user_id, pay_period_start, pay_period_end, taxable_income, reimbursements, other_allowances,
              gross_pay, net_pay, tax_withheld, pension_contribution, nhf_contribution, nhis_contribution, other_deductions,
              employer_pension_contribution, nhis_employer_contribution, employer_cost, tax_regime, transaction_id)
            VALUES (${other.id}, ${userId}, '2026-05-01', '2026-05-31', 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 'pita', 'RUN-STAMP') RETURNING id`,
      );
      await tx.execute(insertItem(paystub.id, 0));
      await tx.execute(insertRecord(paystub.id));
      await tx.execute(sql`UPDATE paystubs SET net_pay = 2 WHERE id = ${paystub.id}`);
      await tx.execute(insertItem(paystub.id, 1));
      return paystub.id;
    });
    // Inserted, then updated once (the update moves it); the items and record written by the same transaction do not.
    expect(await stampOf(id)).toBe(1);
    await ctx.db.execute(insertItem(id, 2));
    expect(await stampOf(id)).toBe(2);
    await ctx.db.execute(insertRecord(id));
    expect(await stampOf(id)).toBe(3);
    await ctx.db.execute(sql`DELETE FROM paystub_items WHERE paystub_id = ${id} AND position = 2`);
    expect(await stampOf(id)).toBe(4);
  });

  it('P2 writes a run with its items and records without touching its paystubs again', async () => {
    const company = await createCompany(ctx.db);
    const [user] = await createUsers(ctx.db, company.id, [{}]);
    await ctx.db.execute(
      sql`INSERT INTO custom_contributions (company_id, name, type, apply_to, employee_responsibility, employee_value, frequency)
          VALUES (${company.id}, 'Welfare', 'amount', 'gross_pay', true, 100, 'per_paystub')`,
    );
    const res = await postPaystubs(ctx.app, company, {
      paystubs: [
        paystubItem(user.id, {
          pay_period_start: '2026-03-01',
          pay_period_end: '2026-03-31',
          items: [{ type: 'bonus', amount: 1000, description: 'Q1 bonus' }],
        } as never),
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const rows = await queryRows<{ listed_stamp: number; items: number; records: number }>(
      ctx.db,
      sql`SELECT p.listed_stamp, (SELECT count(*)::int FROM paystub_items i WHERE i.paystub_id = p.id) AS items,
            (SELECT count(*)::int FROM custom_contribution_records r WHERE r.contribution_id = p.id) AS records
          FROM paystubs p WHERE p.company_id = ${company.id}`,
    );
    expect(rows).toEqual([{ listed_stamp: 0, items: 1, records: 1 }]);
  });
});
