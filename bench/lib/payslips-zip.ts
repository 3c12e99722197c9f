// One download of a run's payslips (GET /api/payroll-runs/{id}/payslips), as the payslips and
// growth scenarios time it: the ZIP read as a stream and counted, never kept, by this process; the
// server's CPU time and peak RSS (VmHWM, and VmRSS sampled every 100 ms while the ZIP streams).

import type { BenchContext } from '../scenario.js';
import { cpuSeconds, serverPeakRss } from './processes.js';

export interface PayslipsZip {
  seconds: number;
  bytes: number;
  /** The server's CPU time over the download, in ms. */
  serverCpuMs: number;
  peakRssMb: number;
}

export async function timedPayslipsZip(ctx: BenchContext, token: string, runId: string): Promise<PayslipsZip> {
  const peakRss = await serverPeakRss(ctx);
  const started = performance.now();
  const cpuBefore = cpuSeconds(ctx.serverPid) ?? 0;
  let bytes = 0;
  let peakRssMb = 0;
  try {
    const res = await fetch(`${ctx.baseUrl}/api/payroll-runs/${runId}/payslips`, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200 || !res.body) throw new Error(`GET payslips: ${res.status} ${await res.text()}`);
    for await (const chunk of res.body) bytes += (chunk as Uint8Array).length;
  } finally {
    peakRssMb = await peakRss.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  const serverCpuMs = ((cpuSeconds(ctx.serverPid) ?? 0) - cpuBefore) * 1000;
  return { seconds, bytes, serverCpuMs, peakRssMb };
}
