// What every measure of the growth scenario (bench/scenarios/growth.ts) works on: one fresh company
// of `n` payable employees (bench/lib/scale-fixture.ts) whose runs are approved by token and whose
// wallet can pay them, and the recorder that turns a timing into a growth.json row and a row of the
// bench's table. The measures themselves are in growth-reads.ts and growth-writes.ts.
import type { BenchContext, BenchRow } from '../scenario.js';
import { setConsolePassword, signInConsole } from './console-session.js';
import { approveByToken, fundWallet } from './payroll-employer.js';
import { cpuSeconds, databaseBackendsCpu } from './processes.js';
import { runState } from './run-state.js';
import { seedUsersSql } from './scale-fixture.js';

/** One row of bench/results/growth.json; the file is an array of them. */
export interface GrowthRow {
  measure: string;
  n: number;
  per_item_ms: number;
}

export interface GrowthWorld {
  ctx: BenchContext;
  n: number;
  company: { id: number; token: string; domain: string };
  /** Creates the runs (an administrator). */
  creator: string;
  /** Approves them (another administrator: the API refuses the creator). */
  approver: string;
  /** Cookie header of the creator's console session. */
  consoleCookie: string;
  /** Sequential requests per timed page (its median is the figure), and per heavy read (a month, a schedule). */
  requests: number;
  heavyRequests: number;
  /**
   * Records a measure: `perItemMs` goes to growth.json; the bench's table gets `rate` in `unit`
   * with `note`, and, from the second size on, how the cost per item moved since the first.
   */
  record(measure: string, perItemMs: number, row: Pick<BenchRow, 'rate' | 'unit' | 'note'>): void;
  /** API headers of the company's token. */
  auth: Record<string, string>;
}

/** Creates the company of `n` employees, funded, approving by token, with the creator's console password set. */
export async function growthWorld(
  ctx: BenchContext,
  n: number,
  options: { requests: number; heavyRequests: number; rows: GrowthRow[]; record: boolean },
): Promise<GrowthWorld> {
  const company = await ctx.newCompany();
  const db = ctx.database.db;
  await seedUsersSql(db, company.id, n);
  await approveByToken(db, company.id);
  // Well above what a run of n pays (the seeded salaries are under ₦300,000 a month).
  await fundWallet(db, company.id, 1_000_000 * n);
  const creator = `first1.last1@${company.domain}`;
  await setConsolePassword(db, company.id, creator);
  // As autovacuum would leave a long-running database.
  await ctx.database.execScript('VACUUM ANALYZE');
  const consoleCookie = await signInConsole(ctx.baseUrl, creator);
  const label = `growth n=${n.toLocaleString('en')}`;
  return {
    ctx,
    n,
    company,
    creator,
    approver: `first2.last2@${company.domain}`,
    consoleCookie,
    requests: options.requests,
    heavyRequests: options.heavyRequests,
    auth: { authorization: `Bearer ${company.token}` },
    record(measure, perItemMs, row) {
      if (!options.record) return;
      const first = options.rows.find((earlier) => earlier.measure === measure && earlier.n < n);
      const moved = first ? `; per item ×${(perItemMs / first.per_item_ms).toFixed(2)} of n=${first.n.toLocaleString('en')}` : '';
      options.rows.push({ measure, n, per_item_ms: perItemMs });
      ctx.report({ ...row, scenario: `${label}: ${measure}`, note: `${perItemMs.toFixed(3)} ms per item; ${row.note}${moved}` });
    },
  };
}

/**
 * CPU time of the server and of this run's PostgreSQL backends from now until the returned function
 * is called, in ms: unlike the wall-clock time it hardly moves with the host's other load, so it
 * tells a cost that grows with n from a busy moment. A backend that exited meanwhile (the server's
 * pool closes idle connections) took its time with it: `databaseExact` is then false and
 * `databaseMs` a lower bound.
 */
export function cpuMeter(ctx: BenchContext): () => { serverMs: number; databaseMs: number; databaseExact: boolean } {
  const database = new URL(runState.databaseUrl).pathname.slice(1);
  const server = cpuSeconds(ctx.serverPid) ?? 0;
  const before = databaseBackendsCpu(database);
  return () => {
    const after = databaseBackendsCpu(database);
    let databaseSeconds = 0;
    for (const [pid, seconds] of after) databaseSeconds += seconds - (before.get(pid) ?? 0);
    return {
      serverMs: ((cpuSeconds(ctx.serverPid) ?? 0) - server) * 1000,
      databaseMs: databaseSeconds * 1000,
      databaseExact: [...before.keys()].every((pid) => after.has(pid)),
    };
  };
}

/** `CPU per <unit>: server 1.23 ms + database 0.45 ms` of a meter's reading over `count` items or requests. */
export function cpuNote(cpu: { serverMs: number; databaseMs: number; databaseExact: boolean }, count: number, unit: string): string {
  const database = `${cpu.databaseExact ? '' : '>= '}${(cpu.databaseMs / count).toFixed(2)} ms`;
  return `CPU per ${unit}: server ${(cpu.serverMs / count).toFixed(2)} ms + database ${database}`;
}
