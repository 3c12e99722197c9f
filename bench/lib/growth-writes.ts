// The growth scenario's batches (bench/scenarios/growth.ts): a run for all n employees, its approval
// and payment on the sandbox, its payslips' ZIP, and an import of n more employees. Each is timed end
// to end once; its cost per item is that time over the paystubs, payslips or rows it handled, and
// the server's peak RSS over it goes in the note.
import { importCsv, timedBulkCreate } from './bulk-upload.js';
import { cpuMeter, cpuNote, type GrowthWorld } from './growth-world.js';
import { apiCall } from './http.js';
import { approveRun, payRun } from './pay-run.js';
import { runPeriod } from './payroll-employer.js';
import { timedPayslipsZip } from './payslips-zip.js';

/** The most rows one upload may carry (MAX_ROWS of the users module's CSV rules). */
const ROWS_PER_UPLOAD = 10_000;

/** The period of the measured run, and the month its payment date falls in (for the remittances). */
export const GROWTH_PERIOD = runPeriod(0);
export const GROWTH_MONTH = GROWTH_PERIOD.payment_date.slice(0, 7);

/** POST /api/payroll-runs for every employee, created by the first administrator; returns the run's id. */
export async function createRun(world: GrowthWorld): Promise<string> {
  const { ctx, n } = world;
  await ctx.serverPeakRssMb();
  const cpu = cpuMeter(ctx);
  const started = performance.now();
  const res = await apiCall(ctx, world.company.token, 'POST', '/api/payroll-runs', { ...GROWTH_PERIOD, created_by_email: world.creator });
  const ms = performance.now() - started;
  if (res.status !== 201) throw new Error(`POST /api/payroll-runs: ${res.status} ${JSON.stringify(res.json).slice(0, 500)}`);
  const run = res.json.run;
  if (run.counts.unpaid !== n) throw new Error(`run ${run.id} made ${run.counts.unpaid} paystubs of ${n}`);
  world.record('run creation', ms / n, {
    rate: (n * 1000) / ms,
    unit: 'paystubs/s',
    note: `${(ms / 1000).toFixed(2)} s; ${cpuNote(cpu(), n, 'paystub')}; peak server RSS ${await ctx.serverPeakRssMb()} MB`,
  });
  return run.id as string;
}

/** Approval by the second administrator, then `pay` until every paystub is paid. */
export async function approveAndPay(world: GrowthWorld, runId: string): Promise<void> {
  const { ctx, n } = world;
  const approveCpu = cpuMeter(ctx);
  const approveMs = await approveRun(ctx, world.company.token, runId, world.approver);
  const approveCpuNote = cpuNote(approveCpu(), n, 'paystub');
  world.record('approve', approveMs / n, {
    rate: (n * 1000) / approveMs,
    unit: 'paystubs/s',
    note: `${approveMs.toFixed(0)} ms; ${approveCpuNote}`,
  });
  // A deadline that grows with the run (10 paystubs a second at least), so that a slow size is
  // measured rather than cut short: 100,000 were paid at about 100 a second (docs/benchmarks.md,
  // "Growth"). Each poll (GET of the run) counts the run's paystubs: polled every 100 ms, 100,000
  // of them kept a PostgreSQL backend counting most of the time, slowing the payment it timed. An
  // interval in proportion to n keeps the poll's share of the machine about the same at every size.
  const pollMs = Math.min(2000, Math.max(50, n / 20));
  const payCpu = cpuMeter(ctx);
  const paid = await payRun(ctx, world.company.token, runId, { paystubs: n, deadlineSeconds: 120 + n / 10, pollMs });
  world.record('pay until all paid', (paid.seconds * 1000) / n, {
    rate: n / paid.seconds,
    unit: 'paystubs/s',
    note: `all ${n} paid in ${paid.seconds.toFixed(1)} s (202 after ${paid.acceptedSeconds.toFixed(2)} s, polled every ${pollMs} ms); ${cpuNote(payCpu(), n, 'paystub')}; peak server RSS ${paid.peakRssMb} MB`,
  });
}

/** The run's payslips as one ZIP. */
export async function payslipsZip(world: GrowthWorld, runId: string): Promise<void> {
  const { n } = world;
  const cpu = cpuMeter(world.ctx);
  const zip = await timedPayslipsZip(world.ctx, world.company.token, runId);
  world.record('payslip ZIP', (zip.seconds * 1000) / n, {
    rate: n / zip.seconds,
    unit: 'payslips/s',
    note: `${(zip.bytes / 1024 / 1024).toFixed(1)} MB in ${zip.seconds.toFixed(1)} s; ${cpuNote(cpu(), n, 'payslip')}; peak server RSS ${zip.peakRssMb} MB`,
  });
}

/** n new employees imported through U8, in uploads of at most ROWS_PER_UPLOAD rows one after the other. */
export async function bulkImport(world: GrowthWorld): Promise<void> {
  const { ctx, n, company } = world;
  await ctx.serverPeakRssMb();
  const cpu = cpuMeter(ctx);
  let seconds = 0;
  let uploads = 0;
  for (let done = 0; done < n; done += ROWS_PER_UPLOAD, uploads++) {
    const rows = Math.min(ROWS_PER_UPLOAD, n - done);
    // Each file is built before its upload is timed: the bench measures the server.
    const csv = importCsv(company.domain, `g${company.id}u${uploads}`, rows);
    seconds += await timedBulkCreate(ctx, company.token, csv);
  }
  world.record('bulk import', (seconds * 1000) / n, {
    rate: n / seconds,
    unit: 'rows/s',
    note: `${n} rows in ${uploads} upload${uploads === 1 ? '' : 's'}, ${seconds.toFixed(1)} s; ${cpuNote(cpu(), n, 'row')}; peak server RSS ${await ctx.serverPeakRssMb()} MB`,
  });
}
