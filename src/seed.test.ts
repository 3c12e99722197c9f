// The demo seed on a real, empty database: what it creates goes through the services, the printed
// credentials open the console, and the data is what a payroll would really hold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/helpers/app.js';
import { signIn } from '../test/helpers/web.js';
import { queryRows, sql } from './db/client.js';
import { type DemoSeed, demoPassword, lastMonth, seedDemo } from './seed.js';
import { DEMO_BANKS, DEMO_PEOPLE, nubanCheckDigit } from './seed-data.js';

// biome-ignore lint/suspicious/noExplicitAny: the run object is read field by field
type RunView = Record<string, any>;

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
    expect(banner).toContain(`super admin:  ${demo.adminEmail}`);
    expect(banner).toContain(`second admin (approves the runs the super admin creates): ${demo.approverEmail}`);
    expect([...banner.matchAll(/password \(shown once\): (\S+)/g)].map((m) => m[1])).toEqual([demo.adminPassword, demo.approverPassword]);
    expect(demo.approverEmail).not.toBe(demo.adminEmail);
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

  it('pays last month from the wallet: a run from the salaries, approved by a second admin, paid and settled', async () => {
    const { start, end } = lastMonth();
    const active = DEMO_PEOPLE.filter((p) => !p.invited);
    const { run } = (await api(`/api/payroll-runs/${demo.transactionId}`)).json() as { run: RunView };
    expect(run.status).toBe('paid');
    expect(run.created_by_email).toBe(demo.adminEmail);
    expect(run.approved_by_email).not.toBe(run.created_by_email);
    // The demo company approves in the console (run_approval person): the second admin did.
    expect(run.approved_via).toBe('console');
    expect(run.approved_by_user_id).not.toBe(run.created_by_user_id);
    expect(run.pay_period_start).toBe(start.toISOString().slice(0, 10));
    expect(run.pay_period_end).toBe(end.toISOString().slice(0, 10));
    expect(run.totals.employees).toBe(active.length);
    expect(run.counts).toEqual({ unpaid: 0, held: 0, processing: 0, paid: active.length, failed: 0, cancelled: 0 });
    const paystubs = (
      (await api(`/api/paystubs?transaction_id=${demo.transactionId}&per_page=100`)).json() as {
        data: { data: { net_pay: number; status: string; paid_at: string; payment_reference: string }[] };
      }
    ).data.data;
    expect(paystubs).toHaveLength(active.length);
    for (const stub of paystubs) {
      expect(stub.net_pay).toBeGreaterThan(0);
      expect(stub).toMatchObject({ status: 'paid', paid_at: expect.any(String), payment_reference: expect.any(String) });
    }

    // Funded through the sandbox (one top-up, test money), debited once, nothing refunded.
    const ledger = (await api('/api/wallet/transactions?per_page=100')).json().data.data as { type: string; amount: string }[];
    expect(ledger.filter((e) => e.type === 'top_up')).toHaveLength(1);
    expect(ledger.filter((e) => e.type === 'payroll_debit')).toHaveLength(1);
    expect(ledger.filter((e) => e.type === 'payroll_refund')).toHaveLength(0);
    const wallet = (await api('/api/wallet/balance')).json() as { balance: number; sandbox_balance: number };
    const topUp = Number(ledger.find((e) => e.type === 'top_up')?.amount);
    expect(wallet.sandbox_balance).toBe(topUp);
    expect(wallet.balance).toBeCloseTo(topUp - run.totals.net_pay, 2);
    expect(wallet.balance).toBeGreaterThanOrEqual(5_000_000);

    // One payment e-mail queued per paid employee.
    const mails = await queryRows<{ to: string }>(ctx.db, sql`SELECT "to" FROM outbox WHERE subject LIKE '%has paid your salary%'`);
    expect(mails.map((m) => m.to).sort()).toEqual(active.map((p) => `${p.first}.${p.last}@example.com`.toLowerCase()).sort());

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

  it('lets the printed second administrator in to approve a run the first one created, in the console', async () => {
    const maker = await signIn(ctx.app, demo.adminEmail, demo.adminPassword);
    const created = await maker.post('/console/payroll/new', {
      pay_period_start: '2026-12-01',
      pay_period_end: '2026-12-31',
      payment_date: '2026-12-24',
    });
    expect(created.statusCode, created.body.slice(0, 300)).toBe(303);
    const runPath = (created.headers.location as string).split('?')[0];
    expect((await maker.get(runPath)).body).toContain('another administrator must approve it');
    const checker = await signIn(ctx.app, demo.approverEmail, demo.approverPassword);
    const approved = await checker.post(`${runPath}/approve`, {});
    expect(approved.statusCode, approved.body.slice(0, 300)).toBe(303);
    const runId = decodeURIComponent(runPath.split('/').pop() as string);
    const view = (await api(`/api/payroll-runs/${runId}`)).json() as { run: RunView };
    expect(view.run).toMatchObject({ status: 'approved', approved_by_email: demo.approverEmail, approved_via: 'console' });
  });

  it('creates nothing on a database that already has a company', async () => {
    const runs = async () => (await queryRows<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM payroll_runs`))[0].n;
    const before = await runs();
    expect(await seedDemo(ctx.app)).toBeUndefined();
    expect(await runs()).toBe(before);
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
