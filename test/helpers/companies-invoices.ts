// Helpers for invoice tests: a valid I3 body and an invoice created through the API.
import { eq } from 'drizzle-orm';
import type { App } from '../../src/app.js';
import type { Executor } from '../../src/db/client.js';
import { users } from '../../src/db/schema/index.js';
import { createUsers, type TestCompany } from './factories.js';

/** A valid I3 body for an employee e-mail; fields can be overridden. */
export function invoiceBody(userEmail: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    user_email: userEmail,
    description: 'Dental treatment',
    service_date: '2026-01-15',
    provider_name: 'Lagos Dental Clinic',
    total_amount: '150000.00',
    amount_requested: '100000.50',
    category_name: 'Health',
    subcategory_name: 'Dental',
    relationship_manager_email: 'rm@broker.test',
    comment: 'Root canal',
    ...overrides,
  };
}

export type InvoiceJson = { transaction_id: string; [key: string]: unknown };

/** Creates an invoice through I3 as `company` (optionally for a `company_id` below it). */
export async function createInvoiceViaApi(app: App, company: TestCompany, body: Record<string, unknown>): Promise<InvoiceJson> {
  const res = await app.inject({ method: 'POST', url: '/api/invoices', headers: company.auth, payload: body });
  if (res.statusCode !== 201) throw new Error(`I3 failed: ${res.statusCode} ${res.body}`);
  return res.json().invoice as InvoiceJson;
}

/** Active users of `companyId` with these exact company e-mails: the approvers I5 and I6 accept. */
export async function createApprovers(db: Executor, companyId: number, emails: string[]): Promise<void> {
  const rows = await createUsers(
    db,
    companyId,
    emails.map(() => ({ roles: ['manager'] })),
  );
  for (const [i, row] of rows.entries()) await db.update(users).set({ email: emails[i] }).where(eq(users.id, row.id));
}
