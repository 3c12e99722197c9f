// The demo seed on a real, empty database: what it creates goes through the services, the printed
// credentials open the console, and the data is what a payroll would really hold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/helpers/app.js';
import { signIn } from '../test/helpers/web.js';
import { type DemoSeed, demoPassword, lastMonth, seedDemo } from './seed.js';
import { DEMO_BANKS, DEMO_PEOPLE, nubanCheckDigit } from './seed-data.js';

let ctx: TestContext;
let demo: DemoSeed;

beforeAll(async () => {
  ctx = await createTestApp();
  demo = (await seedDemo(ctx.app)) as DemoSeed;
}, 180_000);
afterAll(() => ctx?.close());

const api = (url: string) => ctx.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${demo.token}` } });

describe('the demo seed', () => {
  it('prints the console address, the administrator and the API token once', () => {
    expect(demo).toBeDefined();
    const { banner } = demo;
    expect(banner).toContain(`Console:  ${ctx.config.publicUrl}/console`);
    expect(banner).toContain(`e-mail:   ${demo.adminEmail}`);
    expect(banner.match(/password \(shown once\): (\S+)/)?.[1]).toBe(demo.adminPassword);
    expect(banner.match(/API token \(shown once\): (pk_\S+)/)?.[1]).toBe(demo.token);
    expect(banner).toContain(`curl -H "Authorization: Bearer ${demo.token}" ${ctx.config.publicUrl}/api/users`);
  });

  it('creates employees across departments, user types and managers, with valid NUBAN bank details', async () => {
    const body = (await api('/api/users?count=1000')).json() as { Resources: Record<string, unknown>[]; totalResults: number };
    expect(body.totalResults).toBe(DEMO_PEOPLE.length);
    const people = body.Resources;
    expect(new Set(people.map((u) => u.department)).size).toBeGreaterThanOrEqual(6);
    expect(new Set(people.map((u) => u.user_types))).toEqual(new Set(['Full-time', 'Part-time', 'Contract', 'Intern']));
    expect(people.filter((u) => u.manager_id !== null)).toHaveLength(DEMO_PEOPLE.length - 1);
    expect(people.filter((u) => !u.is_active)).toHaveLength(2);
    const banks = new Map<string, string>(DEMO_BANKS.map((bank) => [bank.name, bank.code]));
    for (const user of people) {
      const account = user.account_number as string;
      expect(account, String(user.email)).toMatch(/^\d{10}$/);
      const code = banks.get(user.bank_name as string) as string;
      expect(code, String(user.bank_name)).toBeDefined();
      expect(user.bank_code, String(user.bank_name)).toBe(code);
      expect(nubanCheckDigit(code, account.slice(0, 9))).toBe(Number(account[9]));
    }
  });

  it('runs last month through P2 for every active employee, and leaves invoices awaiting approval', async () => {
    const { start, end } = lastMonth();
    const paystubs = (
      (await api(`/api/paystubs?transaction_id=${demo.transactionId}&per_page=100`)).json() as {
        data: { data: { pay_period_start: string; pay_period_end: string; net_pay: number }[]; total: number };
      }
    ).data;
    expect(paystubs.total).toBe(DEMO_PEOPLE.filter((p) => !p.invited).length);
    for (const stub of paystubs.data) {
      expect(stub.pay_period_end).toBe(end.toISOString().slice(0, 10));
      expect(stub.pay_period_start >= start.toISOString().slice(0, 10)).toBe(true);
      expect(stub.net_pay).toBeGreaterThan(0);
    }
    const invoices = (await api('/api/invoices?approval_status=pending')).json() as { invoices: unknown[] };
    expect(invoices.invoices).toHaveLength(2);
  });

  it('lets the printed administrator into the console, where the employees and the run are', async () => {
    const client = await signIn(ctx.app, demo.adminEmail, demo.adminPassword);
    const employees = await client.get('/console/employees');
    expect(employees.body).toContain('Okonkwo');
    expect(employees.body).toContain('Invited');
    const run = await client.get(`/console/payroll/${demo.transactionId}`);
    expect(run.statusCode).toBe(200);
    expect(run.body).toContain('Run totals');
    expect((await client.get('/console/invoices')).body).toContain('Eye test and prescription glasses');
  });

  it('creates nothing on a database that already has a company', async () => {
    expect(await seedDemo(ctx.app)).toBeUndefined();
  });
});

describe('demo helpers', () => {
  it('computes the CBN NUBAN check digit (the CBN example: First Bank 011, serial 000001457 → 0000014579)', () => {
    expect(nubanCheckDigit('011', '000001457')).toBe(9);
  });

  it('generates an administrator password that meets the U4 rules, different every time', () => {
    const password = demoPassword();
    expect(password).toMatch(/^Demo(-[A-Z2-9]{4}){3}$/);
    expect(demoPassword()).not.toBe(password);
  });
});
