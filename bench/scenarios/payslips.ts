// Payslips, end to end on the real server: GET /api/payroll-runs/{id}/payslips for a run of 10,000
// paystubs, the ZIP read as a stream and counted (never kept) by this process. Targets: >= 200
// payslips/s rendered into the ZIP; the server's peak RSS < 300 MB (VmHWM, and VmRSS sampled every
// 100 ms while the ZIP streams). The run is a draft: its paystubs (unpaid) get payslips like paid
// ones, and the bench does not time payment. BENCH_SMOKE (CI): 50 employees.
import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { companyDomains, users, userTypes } from '../../src/db/schema/index.js';
import { timedPayslipsZip } from '../lib/payslips-zip.js';
import type { BenchContext, Scenario } from '../scenario.js';

const SMOKE = Boolean(process.env.BENCH_SMOKE);
const EMPLOYEES = Number(process.env.BENCH_PAYSLIP_EMPLOYEES ?? (SMOKE ? 50 : 10_000));

async function employer(ctx: BenchContext) {
  const { db } = ctx.database;
  const company = await ctx.newCompany();
  const [domain] = await db.select().from(companyDomains).where(eq(companyDomains.companyId, company.id)).limit(1);
  const [type] = await db.select().from(userTypes).where(eq(userTypes.companyId, company.id)).limit(1);
  await db.transaction(async (tx) => {
    for (let start = 0; start < EMPLOYEES; start += 1000) {
      const values = Array.from({ length: Math.min(1000, EMPLOYEES - start) }, (_, offset) => {
        const n = start + offset + 1;
        return {
          companyId: company.id,
          employeeId: `SLIP-${String(n).padStart(5, '0')}`,
          firstName: `Payee${n}`,
          lastName: `Slip${n}`,
          email: `slip${n}@${domain.name}`,
          personalEmail: `slip${n}.${company.id}@personal.test`,
          uniqueId: crypto.randomBytes(12).toString('base64url'),
          userTypeId: type.id,
          domainId: domain.id,
          isActive: true,
          onboardingCompleted: true,
          title: 'Officer',
          department: 'Operations',
          baseSalary: `${180_000 + (n % 97) * 7_919}.${String(n % 100).padStart(2, '0')}`,
          allowances: `${(n % 5) * 15_000}.00`,
          paymentFrequency: 'monthly',
          startDate: '2024-01-15',
          bankName: 'Access Bank',
          accountNumber: String(1_000_000_000 + n),
          roles: ['user'],
        };
      });
      await tx.insert(users).values(values);
    }
    await tx.execute(
      sql`UPDATE companies SET employee_seq = ${EMPLOYEES}, address = ${'1 Bench Road\nIkeja, Lagos'} WHERE id = ${company.id}`,
    );
  });
  await ctx.database.execScript('VACUUM ANALYZE');
  return company;
}

const scenario: Scenario = {
  name: 'payslips',
  order: 55,
  async run(ctx) {
    const company = await employer(ctx);
    const auth = { authorization: `Bearer ${company.token}` };
    const created = await fetch(`${ctx.baseUrl}/api/payroll-runs`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ pay_period_start: '2032-01-01', pay_period_end: '2032-01-31', payment_date: '2032-01-30' }),
    });
    const run = ((await created.json()) as { run?: { id: string; counts: { unpaid: number } } }).run;
    if (created.status !== 201 || !run) throw new Error(`POST /api/payroll-runs: ${created.status}`);
    if (run.counts.unpaid !== EMPLOYEES) throw new Error(`run ${run.id} made ${run.counts.unpaid} paystubs of ${EMPLOYEES}`);

    const { seconds, bytes, serverCpuMs, peakRssMb: peak } = await timedPayslipsZip(ctx, company.token, run.id);
    // The server's CPU time per payslip: what a core of its own would give, whatever else runs on the machine.
    const cpuMs = serverCpuMs / EMPLOYEES;
    const rate = EMPLOYEES / seconds;
    const within = rate >= 200 && peak < 300;
    ctx.report({
      scenario: `GET /api/payroll-runs/{id}/payslips (ZIP of ${EMPLOYEES.toLocaleString('en-US')} PDFs, streamed)`,
      rate,
      unit: 'payslips/s',
      note: `${within || SMOKE ? '' : 'MISSED TARGET: '}${(bytes / 1024 / 1024).toFixed(1)} MB in ${seconds.toFixed(1)} s; server CPU ${cpuMs.toFixed(1)} ms per payslip (${Math.round(1000 / cpuMs)}/s on a free core); peak server RSS ${peak} MB (target >= 200 payslips/s, < 300 MB)`,
    });
  },
};

export default scenario;
