// Payroll test helpers: a paystub item, a P2 call, direct settings/rent updates.
import { eq, type SQL, sql } from 'drizzle-orm';
import type { App } from '../../src/app.js';
import { type Executor, queryRows } from '../../src/db/client.js';
import { contributionSettings, users } from '../../src/db/schema/index.js';
import { createCompany, createUsers, type TestCompany } from './factories.js';

export interface PaystubItem {
  id: string | number;
  pay_period_start: string;
  pay_period_end: string;
  taxable_income: number;
  reimbursements: number;
  other_allowances: number;
}

/** A monthly item for January 2026 unless told otherwise. */
export function paystubItem(userId: number, overrides: Partial<PaystubItem> = {}): PaystubItem {
  return {
    id: String(userId),
    pay_period_start: '2026-01-01',
    pay_period_end: '2026-01-31',
    taxable_income: 500000,
    reimbursements: 0,
    other_allowances: 0,
    ...overrides,
  };
}

export function postPaystubs(app: App, who: TestCompany, body: unknown, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: '/api/paystubs', headers: { ...who.auth, ...headers }, payload: body as object });
}

export async function setSettings(db: Executor, companyId: number, values: Partial<typeof contributionSettings.$inferInsert>) {
  await db.update(contributionSettings).set(values).where(eq(contributionSettings.companyId, companyId));
}

export async function setUserTaxFacts(
  db: Executor,
  userId: number,
  values: { annualRentPaid?: string | null; lifeAssurancePremium?: string | null; paymentFrequency?: string | null },
) {
  await db.update(users).set(values).where(eq(users.id, userId));
}

/**
 * The companies and people the payroll HTTP tests share (payroll.test.ts, payroll.runs.test.ts,
 * payroll.contributions.test.ts): a parent with six employees (one on contract, one paid weekly), its
 * child with one employee, and a stranger with one.
 */
export async function createPayrollWorld(db: Executor) {
  const acme = await createCompany(db, { name: 'Acme Payroll' });
  const child = await createCompany(db, { name: 'Acme Child', createdBy: acme.id });
  const stranger = await createCompany(db, { name: 'Stranger Ltd' });
  const staff = await createUsers(db, acme.id, [
    { firstName: 'Ada', lastName: 'Obi' },
    { firstName: 'Bola', lastName: 'Ade', userType: 'Contract' },
    { firstName: 'Chidi', lastName: 'Eze', paymentFrequency: 'weekly' },
    { firstName: 'Dayo', lastName: 'Bello' },
    { firstName: 'Efe', lastName: 'Okon' },
    { firstName: 'Funmi', lastName: 'Lawal' },
  ]);
  const [strangerUser] = await createUsers(db, stranger.id, [{ firstName: 'Sam', lastName: 'Stranger' }]);
  const [childUser] = await createUsers(db, child.id, [{ firstName: 'Kemi', lastName: 'Child' }]);
  // The golden figures of these tests deduct NHF: these employees opted in (docs/payroll.md,
  // "Statutory amendments", amendment 1; new users start opted out, as the NHF tests of
  // payroll.statutory.test.ts check).
  await optInToNhf(db, [acme.id, child.id, stranger.id]);
  return { acme, child, stranger, staff, strangerUser, childUser };
}

/** Rows of a table (optionally matching `where`): "nothing was written" checks. */
export async function countRows(db: Executor, table: string, where: SQL = sql`TRUE`): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${sql.raw(table)} WHERE ${where}`);
  return row.n;
}

/** Opts every employee of these companies in to NHF (users.nhf_opt_in, set here with SQL). */
export async function optInToNhf(db: Executor, companyIds: number[]): Promise<void> {
  await db.execute(sql`UPDATE users SET nhf_opt_in = true WHERE company_id = ANY(${`{${companyIds.join(',')}}`}::int[])`);
}
