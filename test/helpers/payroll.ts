// Payroll test helpers: a paystub item, a P2 call, direct settings/rent updates.
import { eq } from 'drizzle-orm';
import type { App } from '../../src/app.js';
import type { Executor } from '../../src/db/client.js';
import { contributionSettings, users } from '../../src/db/schema/index.js';
import type { TestCompany } from './factories.js';

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
