// An employer whose runs can be paid, for the scenarios that create and pay payroll runs
// (payroll-runs, year-events): `employees` users paid monthly, each with a salary, allowances and a
// valid NUBAN at a known bank (runs pay only those); the first is an administrator who approves, the
// company approves by token (run_approval: token, as a platform with its own maker-checker would),
// and its wallet holds funds for every run.
import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../src/db/client.js';
import { companyDomains, users, userTypes } from '../../src/db/schema/index.js';
import { nubanFor } from '../../src/modules/banks/index.js';
import type { BenchContext } from '../scenario.js';

/**
 * Credits the wallet with `naira` as a settled sandbox top-up would leave it (a transaction and its
 * ledger entry): the bench times payment, not checkout.
 */
export async function fundWallet(db: Executor, companyId: number, naira: number, reference = `WT-BENCH${companyId}`) {
  await db.execute(
    sql`INSERT INTO wallet_transactions (company_id, reference, amount, currency, provider, status, customer_email, redirect_url, completed_at)
        VALUES (${companyId}, ${reference}, ${naira}, 'NGN', 'sandbox', 'success', 'bench@personal.test', 'https://bench.test/', now())`,
  );
  await db.execute(
    sql`INSERT INTO wallet_entries (company_id, amount, kind, transaction_reference) VALUES (${companyId}, ${naira}, 'top_up', ${reference})`,
  );
}

/** The company's runs are approved with its token, naming an administrator (docs/payroll-runs.md, "Approval"). */
export async function approveByToken(db: Executor, companyId: number) {
  await db.execute(sql`UPDATE companies SET run_approval = 'token' WHERE id = ${companyId}`);
}

/** The employer described at the top of this file; `prefix` starts every employee number. */
export async function seedPayrollEmployer(ctx: BenchContext, employees: number, prefix: string) {
  const { db } = ctx.database;
  const company = await ctx.newCompany();
  const [domain] = await db.select().from(companyDomains).where(eq(companyDomains.companyId, company.id)).limit(1);
  const types = await db.select().from(userTypes).where(eq(userTypes.companyId, company.id));
  await db.transaction(async (tx) => {
    for (let start = 0; start < employees; start += 1000) {
      const values = Array.from({ length: Math.min(1000, employees - start) }, (_, offset) => {
        const n = start + offset + 1;
        return {
          companyId: company.id,
          employeeId: `${prefix}-${String(n).padStart(5, '0')}`,
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
    await tx.execute(sql`UPDATE companies SET employee_seq = ${employees} WHERE id = ${company.id}`);
    await approveByToken(tx, company.id);
    await fundWallet(tx, company.id, 90_000_000_000);
  });
  await ctx.database.execScript('VACUUM ANALYZE');
  return { ...company, domainName: domain.name, approver: `payee1@${domain.name}` };
}

/** The monthly pay period `i` months after February 2031 (negative: before), paid on its last day. */
export function runPeriod(i: number) {
  const start = new Date(Date.UTC(2031, 1 + i, 1));
  const end = new Date(Date.UTC(2031, 2 + i, 0));
  return {
    pay_period_start: start.toISOString().slice(0, 10),
    pay_period_end: end.toISOString().slice(0, 10),
    payment_date: end.toISOString().slice(0, 10),
  };
}
