// Employee numbers (docs/users.md, "Employee numbers"): reserved before a batch's transaction in a
// statement of their own, so one company's creates do not queue behind each other's transactions.
// Never a repeat. A number reserved and not used (the create was refused) is given back when no one
// has reserved since; otherwise it is a gap.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { generatedUsers, multipart, newUserBody, usersCsv } from '../../../../test/helpers/users.js';
import { queryRows } from '../../../db/client.js';
import { checkCreate } from '../fields/users.fields.validation.js';
import { createUsers } from './users.create.service.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

/** The number part of `CODE-0042`. */
const numberOf = (employeeId: string) => Number(employeeId.split('-').pop());

async function create(company: TestCompany, overrides: Record<string, unknown> = {}) {
  const res = await as(ctx.app, company).post('/api/users', newUserBody(company, overrides));
  return res;
}

async function numbers(companyId: number): Promise<number[]> {
  const rows = await queryRows<{ employee_id: string }>(
    ctx.db,
    sql`SELECT employee_id FROM users WHERE company_id = ${companyId} ORDER BY id`,
  );
  return rows.map((row) => numberOf(row.employee_id));
}

describe('employee numbers', () => {
  it('concurrent creates of one company all succeed, every number distinct (also for one name)', async () => {
    const company = await createCompany(ctx.db);
    const bodies = [
      ...Array.from({ length: 16 }, (_, i) => newUserBody(company, { first_name: 'Many', last_name: `Names${'x'.repeat(i + 1)}` })),
      ...Array.from({ length: 6 }, () => newUserBody(company, { first_name: 'Same', last_name: 'Name' })),
    ];
    const answers = await Promise.all(bodies.map((body) => as(ctx.app, company).post('/api/users', body)));
    expect(answers.map((a) => a.statusCode)).toEqual(bodies.map(() => 200));
    const ids = answers.map((a) => a.json().user.employee_id as string);
    expect(new Set(ids).size).toBe(bodies.length);
    expect(new Set(answers.map((a) => a.json().user.email)).size).toBe(bodies.length);
    const all = await numbers(company.id);
    expect(new Set(all).size).toBe(all.length);
  });

  it('a create refused after its number was reserved gives it back (no gap, the company row as it was); a re-invite takes none', async () => {
    const company = await createCompany(ctx.db);
    const first = await create(company, { first_name: 'Gap', last_name: 'Before' });
    expect(first.statusCode, first.body).toBe(200);
    const n = numberOf(first.json().user.employee_id);

    // Refused by the planner (inside the transaction), after the number was reserved.
    const row = () => queryRows(ctx.db, sql`SELECT * FROM companies WHERE id = ${company.id}`);
    const before = await row();
    const refused = await create(company, { user_types: 'Astronaut' });
    expect(refused.statusCode).toBe(400);
    expect(await row()).toEqual(before);
    const second = await create(company, { first_name: 'Gap', last_name: 'After' });
    expect(numberOf(second.json().user.employee_id)).toBe(n + 1);

    // Refused before anything is reserved (the body itself is invalid): no gap.
    expect((await as(ctx.app, company).post('/api/users', { first_name: 'No' })).statusCode).toBe(422);
    // A re-invite (the personal e-mail has a user) reserves nothing.
    const again = await as(ctx.app, company).post('/api/users', newUserBody(company, { personal_email: first.json().user.personal_email }));
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().user.id).toBe(first.json().user.id);
    const third = await create(company, { first_name: 'No', last_name: 'Gap' });
    expect(numberOf(third.json().user.employee_id)).toBe(n + 2);
  });

  it('a bulk import reserves its chunk at once: consecutive numbers, one per new row', async () => {
    const company = await createCompany(ctx.db);
    const before = await create(company, { first_name: 'Bulk', last_name: 'First' });
    const n = numberOf(before.json().user.employee_id);
    const form = multipart({}, [
      { field: 'users_csv', filename: 'users.csv', contentType: 'text/csv', data: usersCsv(generatedUsers(25, company.domain)) },
    ]);
    const res = await as(ctx.app, company).post('/api/users/bulk-create', form.payload, { headers: form.headers });
    expect(res.statusCode, res.body).toBe(200);
    const all = await numbers(company.id);
    expect(all.slice(all.indexOf(n) + 1).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => n + 1 + i));
  });
});

// PGlite has one connection: there a second transaction always waits for the first.
describe.skipIf(!process.env.DATABASE_URL)('employee numbers on PostgreSQL', () => {
  it('a create does not wait for another create of the company whose transaction is still open', async () => {
    const company = await createCompany(ctx.db);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let written = () => {};
    const inTransaction = new Promise<void>((resolve) => {
      written = resolve;
    });
    const checked = checkCreate(newUserBody(company, { first_name: 'Held', last_name: 'Open' }));
    if (!checked.ok) throw new Error('invalid test body');
    const deps = { db: ctx.app.deps.db, mailer: ctx.app.deps.mailer, config: ctx.app.deps.config };
    // The first create has written its user and holds its transaction open until released.
    const first = createUsers(deps, company.id, [checked.value], false, false, async () => {
      written();
      await held;
    });
    await inTransaction;
    try {
      const second = await Promise.race([
        create(company, { first_name: 'Not', last_name: 'Waiting' }),
        new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 20_000)),
      ]);
      expect(second === 'waited' ? 'the second create waited for the first' : second.statusCode).toBe(200);
    } finally {
      release();
    }
    const [made] = await first;
    expect(made.ok).toBe(true);
    const all = await numbers(company.id);
    expect(new Set(all).size).toBe(all.length);
  }, 60_000);

  it('a refused create whose number cannot be given back (another create reserved since) leaves a gap of one', async () => {
    const company = await createCompany(ctx.db);
    const first = await create(company, { first_name: 'Gap', last_name: 'First' });
    const n = numberOf(first.json().user.employee_id);
    const checked = checkCreate(newUserBody(company, { first_name: 'Gap', last_name: 'Refused', user_types: 'Astronaut' }));
    if (!checked.ok) throw new Error('invalid test body');
    const deps = { db: ctx.app.deps.db, mailer: ctx.app.deps.mailer, config: ctx.app.deps.config };
    let meanwhile: Awaited<ReturnType<typeof create>> | undefined;
    // n + 1 is reserved for the refused row; while its transaction is open, another create takes n + 2.
    const [refused] = await createUsers(deps, company.id, [checked.value], false, false, async () => {
      meanwhile = await create(company, { first_name: 'Gap', last_name: 'Meanwhile' });
    });
    expect(refused.ok).toBe(false);
    expect(meanwhile?.statusCode, meanwhile?.body).toBe(200);
    expect(numberOf(meanwhile?.json().user.employee_id)).toBe(n + 2);
    const last = await create(company, { first_name: 'Gap', last_name: 'Last' });
    expect(numberOf(last.json().user.employee_id)).toBe(n + 3);
    expect(await numbers(company.id)).not.toContain(n + 1);
  }, 60_000);
});
