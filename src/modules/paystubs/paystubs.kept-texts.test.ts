// P1's texts kept by the instance (paystubs.list-text.service.ts): a page it has not read is read
// whole, in one statement; a page it keeps is answered from its places alone; a changed paystub, a changed user and a user whose type changed are read anew,
// and only they; a paystub that repays a loan is read every time; a user's version says whether they
// are active today; another company's page holds none of these texts. paystubs.json.test.ts holds
// the texts equal, byte for byte, to what the route's serializer writes, read kept and read anew.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { insertRunOfEveryone } from '../../../test/helpers/payroll-runs.js';
import { queryRows } from '../../db/client.js';
import { createPaystubTexts } from './paystubs.list-text.service.js';
import { paystubsListedTextRepo } from './paystubs.listed-text.repo.js';

let ctx: TestContext;
let acme: TestCompany;
let other: TestCompany;
let people: { id: number }[];
const RUN = 'PR-KEPT-TEXTS';

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db);
  other = await createCompany(ctx.db);
  people = await createUsers(ctx.db, acme.id, [{}, { userType: 'Contract' }, {}, {}]);
  await createUsers(ctx.db, other.id, [{}, {}]);
  for (const company of [acme, other]) {
    await insertRunOfEveryone(ctx.db, company.id, `${RUN}-${company.id}`, {
      status: 'draft',
      start: '2031-01-01',
      end: '2031-01-31',
      paymentDate: '2031-01-30',
    });
  }
  // The last person repays a loan on their paystub.
  await ctx.db.execute(sql`INSERT INTO loans (company_id, user_id, kind, principal, balance, instalment, start_period)
    VALUES (${acme.id}, ${people[3].id}, 'loan', 100000, 90000, 10000, '2031-01')`);
  await ctx.db.execute(sql`INSERT INTO paystub_items (company_id, paystub_id, position, code, name, treatment, amount, taxable_amount, taxable,
      pensionable, nhf_base, nsitf_base, regular, cash, loan_id, loan_interest)
    SELECT p.company_id, p.id, 0, 'loan_repayment', 'Loan repayment', 'deduction', 10000, 0, false, false, false, false, false, true, l.id, 0
    FROM paystubs p JOIN loans l ON l.user_id = p.user_id WHERE p.user_id = ${people[3].id}`);
});
afterAll(() => ctx.close());

const paystubOf = async (userId: number) =>
  (await queryRows<{ id: number }>(ctx.db, sql`SELECT id FROM paystubs WHERE user_id = ${userId}`))[0].id;

describe("P1's texts kept by the instance", () => {
  const texts = createPaystubTexts();
  const pageOf = (company: TestCompany) => ({ transactionId: `${RUN}-${company.id}`, offset: 0, limit: 20 });
  /**
   * The page of the run as the instance answers it, whether it was read whole (a page the instance
   * had not read), and the paystubs whose parts it read by id (sorted).
   */
  async function read(company = acme) {
    const whole = vi.spyOn(paystubsListedTextRepo, 'pageParts');
    const parts = vi.spyOn(paystubsListedTextRepo, 'parts');
    try {
      const page = await texts(ctx.db, company.id, pageOf(company));
      const read = parts.mock.calls.flatMap((call) => [...call[2]]).sort((a, b) => a - b);
      return { page, whole: whole.mock.calls.length === 1, read };
    } finally {
      whole.mockRestore();
      parts.mockRestore();
    }
  }
  /** The same page as a new instance answers it. */
  const anew = (company = acme) => createPaystubTexts()(ctx.db, company.id, pageOf(company));

  it('reads a page whole the first time, then from its places, all but the paystub that repays a loan', async () => {
    const first = await read();
    expect([first.whole, first.read]).toEqual([true, []]);
    expect(first.page.total).toBe(4);
    const again = await read();
    expect([again.whole, again.read]).toEqual([false, [await paystubOf(people[3].id)]]);
    expect(again.page).toEqual(first.page);
    expect(again.page).toEqual(await anew());
  });

  it('reads anew a changed paystub, a changed user and a user whose type changed, and only them', async () => {
    await read();
    const loan = await paystubOf(people[3].id);
    const changes: [string, ReturnType<typeof sql>, number][] = [
      ['a paystub', sql`UPDATE paystubs SET hold_reason = 'Kept texts' WHERE user_id = ${people[0].id}`, people[0].id],
      ['its items', sql`UPDATE paystub_items SET name = 'Loan repaid' WHERE paystub_id = ${loan}`, people[3].id],
      ['a user', sql`UPDATE users SET first_name = 'Renamed' WHERE id = ${people[2].id}`, people[2].id],
      ['a type', sql`UPDATE user_types SET name = 'Contractor' WHERE company_id = ${acme.id} AND name = 'Contract'`, people[1].id],
    ];
    for (const [what, change, userId] of changes) {
      await ctx.db.execute(change);
      const { page, whole, read: anewRead } = await read();
      expect(whole, what).toBe(false);
      expect(anewRead, what).toEqual([...new Set([await paystubOf(userId), loan])].sort((a, b) => a - b));
      expect(page, what).toEqual(await anew());
    }
    const page = (await read()).page.paystubs.join();
    for (const shown of ['"hold_reason":"Kept texts"', 'Loan repaid', '"first_name":"Renamed"', '"user_types":"Contractor"'])
      expect(page).toContain(shown);
  });

  it("says in a user's version whether they are active today, which the text shows", async () => {
    const { places } = await paystubsListedTextRepo.places(ctx.db, acme.id, pageOf(acme));
    await ctx.db.execute(sql`UPDATE users SET exit_date = '2020-01-31', exit_reason = 'resignation' WHERE id = ${people[0].id}`);
    const after = await paystubsListedTextRepo.places(ctx.db, acme.id, pageOf(acme));
    const version = (list: typeof places, userId: number) => list.find((place) => place.userId === userId)?.userVersion ?? '';
    expect(version(places, people[0].id)).toMatch(/\/a($|\/)/);
    expect(version(after.places, people[0].id)).toMatch(/\/i($|\/)/);
    expect((await read()).page.paystubs.find((text) => text.includes(`"user_id":${people[0].id},`))).toContain('"is_active":false');
  });

  it("gives another company's page none of these texts", async () => {
    await read();
    await read(other);
    const { page, whole } = await read(other);
    expect(whole).toBe(false);
    expect(page.paystubs).toHaveLength(2);
    expect(page.paystubs.every((text) => (JSON.parse(text) as { company_id: number }).company_id === other.id)).toBe(true);
    expect(page).toEqual(await anew(other));
  });
});
