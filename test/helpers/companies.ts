// Helpers for tests of child companies (C1-C6): valid C2 bodies and API-created children with tokens.
import crypto from 'node:crypto';
import type { App } from '../../src/app.js';
import type { Executor } from '../../src/db/client.js';
import { issueToken } from '../../src/platform/auth/tokens.js';
import type { TestCompany } from './factories.js';

let seq = 0;

/** A valid C2 body with a unique domain and personal e-mail; fields can be overridden. */
export function companyBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  seq += 1;
  const tag = `${process.pid}${seq}${crypto.randomBytes(3).toString('hex')}`;
  return {
    name: `Child ${tag}`,
    address: '1 Marina, Lagos',
    phone: '+2348012345678',
    first_name: 'Ada',
    last_name: 'Obi',
    personal_email: `ada.${tag}@personal.test`,
    title: 'Chief Executive',
    domain_name: `child${tag}.test`,
    email_template: 'Hello {{first_name}}',
    payment_frequency: 'monthly',
    ...overrides,
  };
}

/** Creates a company through C2 as `parent`; returns the created Company JSON. */
export async function createChildViaApi(app: App, parent: TestCompany, overrides: Record<string, unknown> = {}) {
  const res = await app.inject({ method: 'POST', url: '/api/companies', headers: parent.auth, payload: companyBody(overrides) });
  if (res.statusCode !== 201) throw new Error(`C2 failed: ${res.statusCode} ${res.body}`);
  return res.json().company as { id: number; code: string; domain: string; [key: string]: unknown };
}

/** A token for a company created through the API (normally generated in the web console). */
export async function tokenFor(
  db: Executor,
  company: { id: number; code: string; domain: string },
  scopes = ['all'],
): Promise<TestCompany> {
  const { token } = await issueToken(db, company.id, scopes);
  return { id: company.id, code: company.code, domain: company.domain, token, auth: { authorization: `Bearer ${token}` } };
}
