// Paystack at scale (issue "Scale", docs/benchmarks.md "Paystack at scale"): one company's run of N
// employees (BENCH_PAYSTACK_SIZES, default 10,000; smoke 300) paid through the fake Paystack of the
// tests with its rate limit on the transfer endpoints (BENCH_PAYSTACK_RATE requests a second, then
// 429 with Retry-After: 1), Paystack's webhooks played back for every transfer it accepted. The
// server is a second one, on a database of its own, with PAYMENT_PROVIDER=paystack. Reports the time
// from Pay to every paystub paid, the requests Paystack refused, and checks that every transfer was
// received exactly once and the run ends paid.
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.js';
import { nubanFor } from '../../src/modules/banks/index.js';
import { type FakeTransfers, fakeTransfers } from '../../test/helpers/paystack-transfers.js';
import { allowRedirectHosts, type FakePaystack, paystackVerified, startFakePaystack } from '../../test/helpers/wallet.js';
import { sendTransferWebhooks } from '../lib/paystack-webhooks.js';
import { seedUsersSql } from '../lib/scale-fixture.js';
import { type ExtraServer, startExtraServer } from '../lib/server-env.js';
import type { Scenario } from '../scenario.js';

const SMOKE = Boolean(process.env.BENCH_SMOKE);
const SIZES = (process.env.BENCH_PAYSTACK_SIZES || (SMOKE ? '300' : '10000')).split(',').map(Number);
const RATE = Number(process.env.BENCH_PAYSTACK_RATE || '10');
const BANK = '058';
/** A salary small enough that one top-up (at most ₦100,000,000) pays 100,000 people. */
const SALARY = '900.00';

async function api(server: ExtraServer, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await response.json()) as { checkoutUrl?: string; run?: { id: string; status: string } };
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** N paid employees with valid NUBANs at one bank (one statement), and the first made an admin who approves. */
async function seedPayroll(server: ExtraServer, companyId: number, n: number): Promise<string> {
  const db = server.database.db;
  await seedUsersSql(db, companyId, n);
  const ids = await queryRows<{ id: number }>(db, sql`SELECT id FROM users WHERE company_id = ${companyId} ORDER BY id`);
  const accounts = ids.map((_, i) => nubanFor(BANK, String(100_000_000 + i)));
  await db.execute(sql`
    UPDATE users u SET bank_code = ${BANK}, bank_name = 'Guaranty Trust Bank', account_number = v.account,
      base_salary = ${SALARY}, allowances = 0
    FROM unnest(${`{${ids.map((row) => row.id).join(',')}}`}::int[], ${`{${accounts.join(',')}}`}::text[]) AS v(id, account)
    WHERE u.id = v.id`);
  const [approver] = await queryRows<{ email: string }>(
    db,
    sql`UPDATE users SET roles = ARRAY['admin'] WHERE id = ${ids[0].id} RETURNING email`,
  );
  // Approval by token with a named approver (docs/payroll-runs.md, "Approval"): the bench has no console session.
  await db.execute(sql`UPDATE companies SET run_approval = 'token' WHERE id = ${companyId}`);
  await db.execute(sql`VACUUM ANALYZE users`);
  return approver.email;
}

/** Tops the wallet up through the fake Paystack's checkout, verified by the server's own job. */
async function fund(server: ExtraServer, fake: FakePaystack, company: { id: number; token: string }, naira: number) {
  await allowRedirectHosts(server.database.db, company.id, ['funds.example']);
  const topUp = await api(server, company.token, 'POST', '/api/wallet/top-up', {
    amount: naira,
    customer_email: 'finance@funds.example',
    redirect_url: 'https://funds.example/done',
  });
  const reference = new URL(topUp.checkoutUrl as string).pathname.slice(1);
  fake.verify.set(reference, paystackVerified(reference, 'success', naira * 100));
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    const [row] = await queryRows<{ balance: string }>(
      server.database.db,
      sql`SELECT balance::text FROM wallet_balances WHERE company_id = ${company.id}`,
    );
    if (row && Number(row.balance) >= naira) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the top-up was not credited within 60 s');
}

async function payAndWait(server: ExtraServer, transfers: FakeTransfers, token: string, runId: string, n: number) {
  const started = performance.now();
  await api(server, token, 'POST', `/api/payroll-runs/${runId}/pay`);
  for (const deadline = Date.now() + 3_600_000; Date.now() < deadline; ) {
    const [open] = await queryRows<{ n: number }>(
      server.database.db,
      sql`SELECT count(*)::int AS n FROM paystubs WHERE transaction_id = ${runId} AND status <> 'paid'`,
    );
    if (open.n === 0) return (performance.now() - started) / 1000;
    const failed = await queryRows(server.database.db, sql`SELECT kind, last_error FROM jobs WHERE failed_at IS NOT NULL LIMIT 3`);
    if (failed.length > 0) throw new Error(`a job failed for good: ${JSON.stringify(failed)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`run ${runId} of ${n} not paid within an hour (${transfers.transfers.size} transfers received)`);
}

const scenario: Scenario = {
  name: 'paystack-scale',
  order: 92,
  async run(ctx) {
    for (const n of SIZES) {
      const fake = await startFakePaystack();
      const transfers = fakeTransfers(fake);
      const server = await startExtraServer(`paystack${n}`, {
        PAYMENT_PROVIDER: 'paystack',
        PAYSTACK_SECRET_KEY: fake.secret,
        PAYSTACK_BASE_URL: fake.url,
        // The top-up's verify job runs 2 s after it starts: time to tell the fake it was paid.
        WALLET_VERIFY_DELAY_SECONDS: '2',
        JOB_POLL_MS: '100',
      });
      const webhooks = sendTransferWebhooks({ fake, transfers, url: `${server.server.baseUrl}/webhooks/paystack` });
      try {
        const company = await server.newCompany();
        const approver = await seedPayroll(server, company.id, n);
        await fund(server, fake, company, Math.min(100_000_000, Math.ceil(n * Number(SALARY))));
        const created = await api(server, company.token, 'POST', '/api/payroll-runs', {
          pay_period_start: '2026-03-01',
          pay_period_end: '2026-03-31',
          payment_date: '2026-03-28',
        });
        const runId = created.run?.id as string;
        await api(server, company.token, 'POST', `/api/payroll-runs/${runId}/approve`, { approver_email: approver });
        server.server.peakRss.takeMb();
        transfers.rateLimit = RATE;
        const requestsBefore = fake.requests.length;
        const seconds = await payAndWait(server, transfers, company.token, runId, n);
        const peak = server.server.peakRss.takeMb();
        const all = [...transfers.transfers.values()];
        const twice = all.filter((transfer) => transfer.received !== 1).length;
        const status = (await api(server, company.token, 'GET', `/api/payroll-runs/${runId}`)).run?.status;
        if (all.length !== n || twice > 0 || status !== 'paid')
          throw new Error(`${n} paystubs: ${all.length} transfers received, ${twice} not exactly once, run ${status}`);
        const requests = fake.requests.length - requestsBefore;
        ctx.report({
          scenario: `paystack-scale: ${n.toLocaleString('en')} employees paid at ${RATE} requests/s`,
          rate: n / seconds,
          unit: 'paystubs/s',
          note: `${seconds.toFixed(1)} s from Pay to all paid; ${requests} Paystack requests (${transfers.limited} refused with 429, ${transfers.bulks.length} bulk transfers); ${webhooks.sent} webhooks; every transfer once; peak RSS ${peak.toFixed(0)} MB`,
        });
      } finally {
        await webhooks.stop();
        await server.close();
        await fake.close();
      }
    }
  },
};

export default scenario;
