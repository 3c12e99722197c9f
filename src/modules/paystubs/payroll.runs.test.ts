// HTTP tests of P2 runs with custom contributions, concurrent runs and idempotent retries, against a
// real database (PGlite, or PostgreSQL with DATABASE_URL). The other P2 tests, P1 and S4-S5 are in
// payroll.test.ts; S1-S3 and S6-S10 in payroll.contributions.test.ts.
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { countRows, createPayrollWorld, optInToNhf, paystubItem, postPaystubs } from '../../../test/helpers/payroll.js';

let ctx: TestContext;
let acme: TestCompany;
let staff: Awaited<ReturnType<typeof createUsers>>;

const count = (table: string, where?: SQL) => countRows(ctx.db, table, where);

beforeAll(async () => {
  ctx = await createTestApp();
  ({ acme, staff } = await createPayrollWorld(ctx.db));
});
afterAll(() => ctx.close());

describe('P2 POST /api/paystubs: custom contributions, concurrency, idempotency', () => {
  it('applies custom contributions by target, one_time once on the earliest period, records kept after delete', async () => {
    const company = await createCompany(ctx.db, { name: 'Customs Co' });
    const people = await createUsers(ctx.db, company.id, [
      { firstName: 'Uno' },
      { firstName: 'Dos', userType: 'Contract' },
      { firstName: 'Tres' },
    ]);
    await optInToNhf(ctx.db, [company.id]); // the expected figures deduct NHF
    const create = async (body: Record<string, unknown>) =>
      (await as(ctx.app, company).post(`/api/custom-contributions/${company.id}`, body)).json().data;
    const everyone = await create({
      name: 'Welfare',
      type: 'percentage',
      apply_to: 'gross_pay',
      responsibility: 'employee',
      employee_value: 2,
      frequency: 'per_paystub',
    });
    const contract = await create({
      name: 'Contractor levy',
      type: 'percentage',
      apply_to: 'net_pay',
      responsibility: 'both',
      employee_value: 5,
      employer_value: 1,
      frequency: 'per_paystub',
      user_types: ['Contract'],
    });
    // Quotes, commas, braces, a backslash and Yoruba diacritics survive the batch insert's array literal.
    const KIT = 'Kit "Ọ̀kan", {x} \\ 1';
    const signOn = await create({
      name: KIT,
      type: 'amount',
      apply_to: 'gross_pay',
      responsibility: 'employee',
      employee_value: 2500.5,
      frequency: 'one_time',
      users: [people[0].personalEmail],
    });
    await create({
      name: 'Paused',
      type: 'amount',
      apply_to: 'gross_pay',
      responsibility: 'employee',
      employee_value: 1,
      frequency: 'per_paystub',
      is_active: false,
    });

    const res = await postPaystubs(ctx.app, company, {
      paystubs: [
        paystubItem(people[0].id, { pay_period_start: '2025-02-01', pay_period_end: '2025-02-28' }),
        paystubItem(people[0].id, { pay_period_start: '2025-01-01', pay_period_end: '2025-01-31' }),
        paystubItem(people[1].id, { pay_period_start: '2025-03-01', pay_period_end: '2025-03-31' }),
      ],
    });
    expect(res.statusCode).toBe(201);
    const [feb, jan, dos] = res.json().created_paystubs;
    const names = (row: { custom_contributions: { name: string }[] }) => row.custom_contributions.map((record) => record.name);
    expect(names(jan)).toEqual(['Welfare', KIT]);
    expect(names(feb)).toEqual(['Welfare']);
    expect(names(dos)).toEqual(['Welfare', 'Contractor levy']);
    // PITA, T 500,000: tax 66,794.67, net before customs 392,205.33 (engine golden case "top band").
    expect(jan.custom_contributions[1]).toMatchObject({
      employee_contribution: 2500.5,
      employer_contribution: 0,
      custom_contribution_id: signOn.id,
      user_id: people[0].id,
    });
    expect(jan.paystub).toMatchObject({ tax_withheld: 66794.67, other_deductions: 12500.5, net_pay: 379704.83 });
    expect(dos.custom_contributions[1]).toMatchObject({ employee_contribution: 19610.27, employer_contribution: 3922.05 });
    expect(dos.paystub).toMatchObject({ other_deductions: 29610.27, net_pay: 362595.06 });

    const later = await postPaystubs(ctx.app, company, {
      paystubs: [paystubItem(people[0].id, { pay_period_start: '2024-12-01', pay_period_end: '2024-12-31' })],
    });
    expect(names(later.json().created_paystubs[0])).toEqual(['Welfare']); // one_time already applied

    expect((await as(ctx.app, company).delete(`/api/custom-contributions/${company.id}/${everyone.id}`)).statusCode).toBe(200);
    expect(await count('custom_contribution_records', sql`name = 'Welfare' AND company_id = ${company.id}`)).toBe(4);
    const s5 = await as(ctx.app, company).get(`/api/contributions/user/${people[0].id}`);
    expect(
      s5
        .json()
        .data[0].custom_contribution_records.map((r: { name: string; custom_contribution_id: number | null }) => [
          r.name,
          r.custom_contribution_id,
        ]),
    ).toEqual([
      ['Welfare', null],
      [KIT, signOn.id],
    ]);
    expect(contract.targets).toHaveLength(1);
  });

  it('two concurrent runs with the same items create each paystub once', async () => {
    const body = {
      paystubs: [staff[0], staff[1], staff[3]].map((user) => ({
        ...paystubItem(user.id, { pay_period_start: '2026-07-01', pay_period_end: '2026-07-31' }),
        id: user.id, // an integer id is accepted too
      })),
    };
    const [a, b] = await Promise.all([postPaystubs(ctx.app, acme, body), postPaystubs(ctx.app, acme, body)]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    const createdCount = a.json().created_paystubs.length + b.json().created_paystubs.length;
    expect(createdCount).toBe(3);
    const failures = [...a.json().failed_paystubs, ...b.json().failed_paystubs];
    expect(failures).toHaveLength(3);
    for (const failure of failures)
      expect(failure.errors).toEqual({ pay_period_start: ['A paystub for this user and pay period already exists.'] });
    expect(await count('paystubs', sql`pay_period_start = '2026-07-01' AND company_id = ${acme.id}`)).toBe(3);
    const bad = await postPaystubs(ctx.app, acme, { company_id: 'abc', paystubs: body.paystubs });
    expect(bad.statusCode).toBe(400);
  });

  it('Idempotency-Key: a retried run creates nothing twice', async () => {
    const body = { paystubs: [paystubItem(staff[5].id, { pay_period_start: '2026-06-01', pay_period_end: '2026-06-30' })] };
    const headers = { 'idempotency-key': 'run-2026-06' };
    const first = await postPaystubs(ctx.app, acme, body, headers);
    const second = await postPaystubs(ctx.app, acme, body, headers);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    expect(second.json().failed_paystubs).toEqual([]);
    expect(await count('paystubs', sql`user_id = ${staff[5].id} AND pay_period_start = '2026-06-01'`)).toBe(1);
    const other = await postPaystubs(ctx.app, acme, { paystubs: [paystubItem(staff[5].id)] }, headers);
    expect([other.statusCode, other.json()]).toEqual([409, { error: 'Idempotency key reused with a different request.' }]);
  });
});
