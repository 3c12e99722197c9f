// What the process tests that pay a run (or send webhooks) share: the server's environment, a
// company made through the admin API, its staff with valid bank accounts, and an approved run.
// Only the set-up is shared; each test keeps its own crash and its own checks.
import crypto from 'node:crypto';
import { expect } from 'vitest';
import { type Database, openPglite } from '../../src/db/client.js';
import { nubanFor } from '../../src/modules/banks/index.js';
import type { TestDatabase } from '../helpers/database.js';
import { requestJson } from './server-process.js';

export const START_MS = 150_000;

/** The environment every such server gets besides DATA_DIR (or DATABASE_URL) and its own switches. */
export function processEnv(adminToken = `adm_${crypto.randomBytes(16).toString('hex')}`): Record<string, string> {
  return {
    ADMIN_TOKEN: adminToken,
    SEED_DEMO: 'false',
    JOB_POLL_MS: '50',
    // The tests poll the API; the limits are not what they test.
    RATE_LIMIT_ENDPOINT: '100000',
    RATE_LIMIT_SENSITIVE: '100000',
    RATE_LIMIT_STANDARD: '100000',
  };
}

export type Api = (method: string, url: string, body?: unknown, headers?: Record<string, string>) => ReturnType<typeof requestJson>;

/** POST /admin/companies; answers the company's bearer header. */
export async function adminCompany(
  baseUrl: string,
  adminToken: string,
  company: { name: string; domain: string; redirect_domains?: string[]; run_approval?: 'person' | 'token' },
) {
  // The token approves runs in these fixtures (run_approval: token) unless a test says otherwise.
  const created = await requestJson(
    baseUrl,
    'POST',
    '/admin/companies',
    { run_approval: 'token', ...company },
    { authorization: `Bearer ${adminToken}` },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { authorization: `Bearer ${created.body.token}` };
}

/**
 * An administrator (`worker99@home.test`, the approver) and `employees` staff paid
 * ₦200,000 + i × ₦10,000 into valid Access Bank (044) NUBANs; answers the staff's personal e-mails.
 */
export async function staffWithBanks(api: Api, domain: string, employees: number): Promise<string[]> {
  const person = (i: number, extra: Record<string, unknown> = {}) => ({
    first_name: `Worker${i}`,
    last_name: 'Crash',
    personal_email: `worker${i}@home.test`,
    domain_name: domain,
    user_types: 'Full-time',
    start_date: '2024-01-01',
    base_salary: String(200_000 + i * 10_000),
    // A run pays only valid NUBANs of known banks.
    bank_code: '044',
    account_number: nubanFor('044', `0123456${String(i).padStart(2, '0')}`),
    is_active: true,
    ...extra,
  });
  const boss = await api('POST', '/api/users', person(99, { base_salary: '0', roles: ['admin'] }));
  expect(boss.status, JSON.stringify(boss.body)).toBeLessThan(300);
  const emails: string[] = [];
  for (let i = 0; i < employees; i++) {
    const res = await api('POST', '/api/users', person(i));
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    emails.push(`worker${i}@home.test`);
  }
  return emails;
}

/** March 2026's run of every employee, created by the first employee and approved by the administrator; answers its id. */
export async function approvedMarchRun(api: Api, _domain: string, employees: number): Promise<string> {
  const run = await api('POST', '/api/payroll-runs', {
    pay_period_start: '2026-03-01',
    pay_period_end: '2026-03-31',
    payment_date: '2026-03-28',
    created_by_email: 'worker0@home.test',
  });
  expect(run.status, JSON.stringify(run.body)).toBe(201);
  expect(run.body.run.counts.unpaid).toBe(employees);
  const approved = await api('POST', `/api/payroll-runs/${run.body.run.id}/approve`, { approver_email: 'worker99@home.test' });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  return run.body.run.id as string;
}

/**
 * Funds the company's wallet through the sandbox checkout, as a company would (its redirect domain
 * must be `funds.example`), and waits until the balance shows it.
 */
export async function sandboxTopUp(api: Api, baseUrl: string, amount: number): Promise<void> {
  const topUp = await api('POST', '/api/wallet/top-up', {
    amount,
    customer_email: 'finance@funds.example',
    redirect_url: 'https://funds.example/done',
  });
  expect(topUp.status, JSON.stringify(topUp.body)).toBe(200);
  const checkout = new URL(topUp.body.checkoutUrl);
  const paid = await fetch(`${baseUrl}${checkout.pathname}${checkout.search}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'outcome=success',
    redirect: 'manual',
  });
  expect(paid.status).toBe(303);
  for (let i = 0; i < 200; i++) {
    if ((await api('GET', '/api/wallet/balance')).body.balance === amount) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the top-up of ${amount} was not credited`);
}

/**
 * Reads the database a stopped server used: its PostgreSQL test database, or its DATA_DIR's PGlite
 * opened for the read and closed after (PGlite allows one process at a time, so only once the
 * server has exited).
 */
export async function readAfterStop<T>(
  where: { testDb: TestDatabase | undefined; dataDir: string },
  read: (db: Database['db']) => Promise<T>,
): Promise<T> {
  if (where.testDb) return read(where.testDb.database.db);
  const database = await openPglite(where.dataDir);
  try {
    return await read(database.db);
  } finally {
    await database.close();
  }
}
