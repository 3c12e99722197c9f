// The ledger chains in the order GET /api/wallet/transactions lists it: each entry's balance_after
// is the previous entry's plus its own (signed) amount, and the newest equals the balance, even
// when pays, retries, refunds and top-ups of one company race (docs/payroll-runs.md, "The ledger").
// On PostgreSQL the race is real (one connection per request); PGlite has one connection and runs
// the transactions one after another, so there the test checks the order without a race.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { fundWallet, runBody, setBankAccounts } from '../../../../test/helpers/payroll-runs.js';
import { queryRows } from '../../../db/client.js';
import { createPayslipLinks } from '../../paystubs/index.js';
import { settleTransfers } from './transfers.settle.service.js';

let ctx: TestContext;
// Transfers never settle by themselves (an hour's sandbox delay): the test settles them, racing the rest.
beforeAll(async () => {
  ctx = await createTestApp({ sandboxTransferDelaySeconds: 3600 });
});
afterAll(() => ctx?.close());

const toKobo = (amount: string) => BigInt(amount.replace('.', ''));

interface Listed {
  id: number;
  type: string;
  amount: string;
  balance_after: string;
}

/** Every page of the listed ledger, newest first, as the API shows it. */
async function listedLedger(company: TestCompany): Promise<Listed[]> {
  const entries: Listed[] = [];
  for (let page = 1; ; page++) {
    const res = await as(ctx.app, company).get(`/api/wallet/transactions?per_page=100&page=${page}`);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    entries.push(...data.data);
    if (page >= data.last_page) return entries;
  }
}

describe('the ledger chains in its listed order', () => {
  it('pays, retries, refunds and top-ups of one company racing: every balance_after = the previous one + amount, the newest = the balance', async () => {
    const company = await createCompany(ctx.db, { runApproval: 'token' }); // the token approves;
    const [boss] = await createUsers(ctx.db, company.id, [{ roles: ['admin'], baseSalary: '0' }]);
    const staff = await createUsers(
      ctx.db,
      company.id,
      ['150000.00', '120000.00', '90000.00', '75000.00'].map((baseSalary) => ({ baseSalary })),
    );
    await setBankAccounts(
      ctx.db,
      staff.map((u) => u.id),
    );
    const runs: string[] = [];
    for (let month = 1; month <= 8; month++) {
      const mm = String(month).padStart(2, '0');
      // A whole month: a run from salaries is one pay period of the company (monthly).
      const last = new Date(Date.UTC(2026, month, 0)).getUTCDate();
      const created = await as(ctx.app, company).post(
        '/api/payroll-runs',
        runBody({ pay_period_start: `2026-${mm}-01`, pay_period_end: `2026-${mm}-${last}`, payment_date: `2026-${mm}-28` }),
      );
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().run.id as string;
      expect((await as(ctx.app, company).post(`/api/payroll-runs/${id}/approve`, { approver_email: boss.email })).statusCode).toBe(200);
      runs.push(id);
    }
    await fundWallet(ctx.app, ctx.db, company, 50_000_000);

    const settleDeps = { db: ctx.db, mailer: ctx.app.deps.mailer, payslipLinks: createPayslipLinks(ctx.app.deps.config.publicUrl) };
    /** Settles every transfer of the run in flight: the first settlement pays one, later ones fail all (refunds). */
    const settle = async (id: string, first: boolean) => {
      const processing = await queryRows<{ payment_reference: string }>(
        ctx.db,
        sql`SELECT payment_reference FROM paystubs WHERE transaction_id = ${id} AND status = 'processing' ORDER BY id`,
      );
      const outcomes = processing.map((p, i) => ({
        reference: p.payment_reference,
        ok: first && i === 0,
        reason: first && i === 0 ? null : 'Account closed.',
      }));
      const settled = await settleTransfers(settleDeps, company.id, id, outcomes);
      expect(settled.paid + settled.failed).toBe(outcomes.length);
    };
    const fund = async (id: string, mode: 'pay' | 'retry') => {
      const res = await as(ctx.app, company).post(`/api/payroll-runs/${id}/${mode}`);
      expect(res.statusCode, res.body).toBe(202);
    };
    const halves = [runs.slice(0, 4), runs.slice(4)];
    // Round 0 pays the first half; each later round funds one half (pay, then retries) while the
    // other half's transfers fail (refunds), with two top-ups in between.
    for (let round = 0; round < 7; round++) {
      const funding = halves[round % 2];
      const settling = round === 0 ? [] : halves[(round + 1) % 2];
      await Promise.all([
        ...funding.map((id) => fund(id, round < 2 ? 'pay' : 'retry')),
        ...settling.map((id) => settle(id, round < 3)),
        fundWallet(ctx.app, ctx.db, company, 12_345.67),
        fundWallet(ctx.app, ctx.db, company, 101.01),
      ]);
    }

    const listed = await listedLedger(company);
    const kinds = new Set(listed.map((e) => e.type));
    expect(kinds).toEqual(new Set(['top_up', 'payroll_debit', 'payroll_refund']));
    expect(listed.length).toBeGreaterThan(100);
    const oldestFirst = [...listed].reverse();
    const broken: string[] = [];
    let running = 0n;
    for (const entry of oldestFirst) {
      running += toKobo(entry.amount);
      if (toKobo(entry.balance_after) !== running) broken.push(`${entry.type} ${entry.id}: ${entry.amount} → ${entry.balance_after}`);
      running = toKobo(entry.balance_after);
    }
    expect(broken).toEqual([]);
    const balance = await as(ctx.app, company).get('/api/wallet/balance');
    expect(toKobo(listed[0].balance_after)).toBe(toKobo(Number(balance.json().balance).toFixed(2)));
  }, 240_000);
});
