// Paystack at scale (docs/benchmarks.md, "Paystack at scale"): one company's run of N
// employees (BENCH_PAYSTACK_SIZES, default 10,000; smoke 300) paid through the fake Paystack of the
// tests with its rate limit on the transfer endpoints (BENCH_PAYSTACK_RATE requests a second, then
// 429 with Retry-After: 1), Paystack's webhooks played back for every transfer it accepted. The
// server is a second one, on a database of its own, with PAYMENT_PROVIDER=paystack. Reports the time
// from Pay to every paystub paid, the requests Paystack refused, and checks that every transfer was
// received exactly once and the run ends paid.
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.js';
import { type FakeTransfers, fakeTransfers } from '../../test/helpers/paystack-transfers.js';
import { startFakePaystack } from '../../test/helpers/wallet.js';
import { apiCall, type Json } from '../lib/http.js';
import { approveByToken, fundWallet } from '../lib/payroll-employer.js';
import { sendTransferWebhooks } from '../lib/paystack-webhooks.js';
import { rssMb } from '../lib/processes.js';
import { seedUsersSql } from '../lib/scale-fixture.js';
import { EXTRA_SERVER_APPLICATION, type ExtraServer, startExtraServer } from '../lib/server-env.js';
import type { BenchContext, Scenario } from '../scenario.js';

type Call = (method: string, path: string, body?: unknown) => Promise<Json>;

/** API calls with the company's token that stop the bench on anything but a 2xx answer. */
function caller(ctx: BenchContext, token: string): Call {
  return async (method, path, body) => {
    const { status, json } = await apiCall(ctx, token, method, path, body);
    if (status >= 300) throw new Error(`${method} ${path}: ${status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
}

const SMOKE = Boolean(process.env.BENCH_SMOKE);
const SIZES = (process.env.BENCH_PAYSTACK_SIZES || (SMOKE ? '300' : '10000')).split(',').map(Number);
const RATE = Number(process.env.BENCH_PAYSTACK_RATE || '10');
/**
 * N payable employees (bench/lib/scale-fixture.ts: valid NUBANs, the first two administrators),
 * approving by token, the wallet funded well above the run's net pay (salaries under ₦300,000).
 */
async function seedPayroll(server: ExtraServer, companyId: number, n: number): Promise<void> {
  const db = server.database.db;
  await seedUsersSql(db, companyId, n);
  await approveByToken(db, companyId);
  await fundWallet(db, companyId, 1_000_000 * n);
  await server.database.execScript('VACUUM ANALYZE');
}

async function payAndWait(server: ExtraServer, transfers: FakeTransfers, call: Call, runId: string, n: number) {
  const started = performance.now();
  await call('POST', `/api/payroll-runs/${runId}/pay`);
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

/**
 * Row updates of payroll_transfers so far (the statistics' count): each refused bulk used to cost
 * two a transfer, `sending` then `queued` again.
 */
async function transferRowUpdates(server: ExtraServer): Promise<number> {
  const [row] = await queryRows<{ n: string | null }>(
    server.database.db,
    sql`SELECT n_tup_upd::text AS n FROM pg_stat_user_tables WHERE relname = 'payroll_transfers'`,
  );
  return Number(row?.n ?? 0);
}

/**
 * Waits until the stopped server has no session left (its `application_name`). A backend that is
 * still connected sends its statistics up to 10 s after it goes idle (PostgreSQL 15), one that
 * exits sends them as it goes: after this the final count is whole, without a fixed 11 s wait.
 */
async function serverSessionsEnded(server: ExtraServer): Promise<void> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    const [left] = await queryRows<{ n: number }>(
      server.database.db,
      sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = ${EXTRA_SERVER_APPLICATION}`,
    );
    if (left.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the stopped server still has database sessions after 30 s: its statistics would be incomplete');
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
        JOB_POLL_MS: '100',
      });
      const webhooks = sendTransferWebhooks({ fake, transfers, url: `${server.server.baseUrl}/webhooks/paystack` });
      try {
        const company = await server.newCompany();
        await seedPayroll(server, company.id, n);
        const call = caller({ ...ctx, baseUrl: server.server.baseUrl }, company.token);
        const created = await call('POST', '/api/payroll-runs', {
          pay_period_start: '2026-03-01',
          pay_period_end: '2026-03-31',
          payment_date: '2026-03-28',
        });
        const runId = created.run.id as string;
        await call('POST', `/api/payroll-runs/${runId}/approve`, { approver_email: `first2.last2@${company.domain}` });
        server.server.peakRss.takeMb();
        // The resident set Pay starts from: what the run's creation left in the heap counts in the
        // peak below without being the payment's (docs/benchmarks.md, "Paystack at scale").
        const rssAtPay = rssMb(server.server.pid);
        transfers.rateLimit = RATE;
        const requestsBefore = fake.requests.length;
        const updatesBefore = await transferRowUpdates(server);
        const seconds = await payAndWait(server, transfers, call, runId, n);
        const peak = server.server.peakRss.takeMb();
        const { status } = (await call('GET', `/api/payroll-runs/${runId}`)).run;
        await webhooks.stop();
        await server.server.stop();
        await serverSessionsEnded(server);
        const updates = (await transferRowUpdates(server)) - updatesBefore;
        const all = [...transfers.transfers.values()];
        const twice = all.filter((transfer) => transfer.received !== 1).length;
        if (all.length !== n || twice > 0 || status !== 'paid')
          throw new Error(`${n} paystubs: ${all.length} transfers received, ${twice} not exactly once, run ${status}`);
        const requests = fake.requests.length - requestsBefore;
        ctx.report({
          scenario: `paystack-scale: ${n.toLocaleString('en')} employees paid at ${RATE} requests/s`,
          rate: n / seconds,
          unit: 'paystubs/s',
          note: `${seconds.toFixed(1)} s from Pay to all paid; ${requests} Paystack requests (${transfers.limited} refused with 429, ${transfers.bulks.length} bulk transfers); ${webhooks.sent} webhooks; every transfer once; ${(updates / n).toFixed(1)} transfer row updates a transfer; peak RSS ${peak.toFixed(0)} MB (${rssAtPay.toFixed(0)} MB at Pay)`,
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
