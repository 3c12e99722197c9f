// Payroll runs, end to end on the real server:
// (a) POST /api/payroll-runs for a company of 10,000 employees computes every paystub from the
//     records (base_salary, allowances): target >= 5,000 paystubs/s (median of 3 runs, each a new
//     period, after a small warm-up run);
// (b) the last of them approved and paid on the sandbox (the runner starts the server with
//     SANDBOX_TRANSFER_DELAY_SECONDS=0): target every paystub `paid` within 60 s, the server's RSS
//     under 300 MB (VmHWM, and VmRSS sampled every 100 ms while the run processes).
// BENCH_SMOKE (CI): 200 employees, one measured run.
import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { companyDomains, users, userTypes } from '../../src/db/schema/index.js';
import { nubanFor } from '../../src/modules/banks/index.js';
import { rssMb } from '../lib/processes.js';
import type { BenchContext, Scenario } from '../scenario.js';

const SMOKE = Boolean(process.env.BENCH_SMOKE);
const EMPLOYEES = Number(process.env.BENCH_RUN_EMPLOYEES ?? (SMOKE ? 200 : 10_000));
const RUNS = Number(process.env.BENCH_RUN_RUNS ?? (SMOKE ? 1 : 3));
const PAY_DEADLINE_SECONDS = 60;

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field
type Json = Record<string, any>;

async function call(
  ctx: BenchContext,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${ctx.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Json };
}

/** A company of EMPLOYEES paid monthly, each with a salary, allowances and a bank account; one admin approves. */
async function employer(ctx: BenchContext) {
  const { db } = ctx.database;
  const company = await ctx.newCompany();
  const [domain] = await db.select().from(companyDomains).where(eq(companyDomains.companyId, company.id)).limit(1);
  const types = await db.select().from(userTypes).where(eq(userTypes.companyId, company.id));
  await db.transaction(async (tx) => {
    for (let start = 0; start < EMPLOYEES; start += 1000) {
      const values = Array.from({ length: Math.min(1000, EMPLOYEES - start) }, (_, offset) => {
        const n = start + offset + 1;
        return {
          companyId: company.id,
          employeeId: `RUN-${String(n).padStart(5, '0')}`,
          firstName: `Payee${n}`,
          lastName: `Run${n}`,
          email: `payee${n}@${domain.name}`,
          personalEmail: `payee${n}.${company.id}@personal.test`,
          uniqueId: crypto.randomBytes(12).toString('base64url'),
          userTypeId: types[n % types.length].id,
          domainId: domain.id,
          isActive: true,
          onboardingCompleted: true,
          title: 'Officer',
          department: 'Operations',
          baseSalary: `${180_000 + (n % 97) * 7_919}.${String(n % 100).padStart(2, '0')}`,
          allowances: `${(n % 5) * 15_000}.00`,
          paymentFrequency: 'monthly',
          // A few start mid-month in the first measured period: paid pro rata.
          startDate: n % 50 === 0 ? '2031-02-11' : '2024-01-15',
          // A valid NUBAN at a known bank (Access Bank, 044): runs pay only those.
          bankName: 'Access Bank',
          bankCode: '044',
          accountNumber: nubanFor('044', String(200_000_000 + n)),
          roles: n === 1 ? ['user', 'admin'] : ['user'],
        };
      });
      await tx.insert(users).values(values);
    }
    // The token approves (run_approval: token), as a platform with its own maker-checker would.
    await tx.execute(sql`UPDATE companies SET employee_seq = ${EMPLOYEES}, run_approval = 'token' WHERE id = ${company.id}`);
    // Funds for every run, as a settled sandbox top-up would leave them (the bench does not time checkout).
    await tx.execute(
      sql`INSERT INTO wallet_transactions (company_id, reference, amount, currency, provider, status, customer_email, redirect_url, completed_at)
          VALUES (${company.id}, ${`WT-BENCH${company.id}`}, 90000000000, 'NGN', 'sandbox', 'success', 'bench@personal.test', 'https://bench.test/', now())`,
    );
    await tx.execute(
      sql`INSERT INTO wallet_entries (company_id, amount, kind, transaction_reference) VALUES (${company.id}, 90000000000, 'top_up', ${`WT-BENCH${company.id}`})`,
    );
  });
  await ctx.database.execScript('VACUUM ANALYZE');
  return { ...company, domainName: domain.name, approver: `payee1@${domain.name}` };
}

const month = (i: number) => {
  const start = new Date(Date.UTC(2031, 1 + i, 1));
  const end = new Date(Date.UTC(2031, 2 + i, 0));
  return {
    pay_period_start: start.toISOString().slice(0, 10),
    pay_period_end: end.toISOString().slice(0, 10),
    payment_date: end.toISOString().slice(0, 10),
  };
};

const scenario: Scenario = {
  name: 'payroll-runs',
  order: 50,
  async run(ctx) {
    const company = await employer(ctx);
    const create = async (period: number, userIds?: number[]) => {
      const res = await call(ctx, company.token, 'POST', '/api/payroll-runs', {
        ...month(period),
        ...(userIds ? { user_ids: userIds } : {}),
        created_by_email: `payee2@${company.domainName}`,
      });
      if (res.status !== 201) throw new Error(`POST /api/payroll-runs: ${res.status} ${JSON.stringify(res.json).slice(0, 500)}`);
      return res.json.run as Json;
    };

    // Warm-up: the server's first run compiles the paths (not measured).
    await create(-1, undefined);
    await ctx.serverPeakRssMb();
    const rates: number[] = [];
    let run: Json = {};
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      run = await create(i);
      const seconds = (performance.now() - started) / 1000;
      const paystubs = run.counts.unpaid as number;
      if (paystubs !== EMPLOYEES)
        throw new Error(`run ${run.id} made ${paystubs} paystubs of ${EMPLOYEES} (skipped ${JSON.stringify(run.skipped).slice(0, 300)})`);
      rates.push(paystubs / seconds);
    }
    const createPeak = await ctx.serverPeakRssMb();
    const median = [...rates].sort((a, b) => a - b)[Math.floor(rates.length / 2)];
    ctx.report({
      scenario: `POST /api/payroll-runs (${EMPLOYEES.toLocaleString('en-US')} employees from their records)`,
      rate: Math.round(median),
      unit: 'paystubs/s',
      note: `median of ${RUNS} (best ${Math.round(Math.max(...rates))}); peak server RSS ${createPeak} MB (target >= 5000 paystubs/s)`,
    });

    const approved = await call(ctx, company.token, 'POST', `/api/payroll-runs/${run.id}/approve`, { approver_email: company.approver });
    if (approved.status !== 200) throw new Error(`approve: ${approved.status} ${JSON.stringify(approved.json)}`);
    await ctx.serverPeakRssMb();
    let sampled = 0;
    const sampler = setInterval(() => {
      sampled = Math.max(sampled, rssMb(ctx.serverPid));
    }, 100);
    const started = performance.now();
    try {
      const pay = await call(ctx, company.token, 'POST', `/api/payroll-runs/${run.id}/pay`);
      if (pay.status !== 202) throw new Error(`pay: ${pay.status} ${JSON.stringify(pay.json)}`);
      const accepted = (performance.now() - started) / 1000;
      let current: Json = pay.json.run;
      while (current.status === 'processing' && performance.now() - started < (PAY_DEADLINE_SECONDS + 60) * 1000) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        current = (await call(ctx, company.token, 'GET', `/api/payroll-runs/${run.id}`)).json.run;
      }
      const seconds = (performance.now() - started) / 1000;
      const peak = Math.max(await ctx.serverPeakRssMb(), Math.round(sampled));
      if (current.status !== 'paid' || current.counts.paid !== EMPLOYEES)
        throw new Error(`run ${run.id} ended ${current.status} with ${JSON.stringify(current.counts)} after ${seconds.toFixed(1)} s`);
      const within = seconds <= PAY_DEADLINE_SECONDS && peak < 300;
      ctx.report({
        scenario: `pay that run on the sandbox (delay 0), every paystub paid`,
        rate: EMPLOYEES / seconds,
        unit: 'paystubs/s',
        note: `${within ? '' : 'MISSED TARGET: '}all ${EMPLOYEES} paid in ${seconds.toFixed(1)} s (202 after ${accepted.toFixed(2)} s); peak server RSS ${peak} MB (target <= 60 s, < 300 MB)`,
      });
    } finally {
      clearInterval(sampler);
    }
  },
};

export default scenario;
