// Paying a run on the sandbox, as the payroll-runs and growth scenarios time it: the approval (in a
// company on `run_approval: token`, by an administrator other than the run's creator, as the API
// requires: docs/payroll-runs.md, "Approval"), then `pay` and the wait until the run leaves
// `processing`. The runner starts the server with SANDBOX_TRANSFER_DELAY_SECONDS=0, so the wait is
// the server's own work. The server's peak RSS is VmHWM and VmRSS sampled every 100 ms meanwhile.

import type { BenchContext } from '../scenario.js';
import { apiCall, type Json } from './http.js';
import { serverPeakRss } from './processes.js';

/** POST /api/payroll-runs/{id}/approve naming `approverEmail`; ms it took. */
export async function approveRun(ctx: BenchContext, token: string, runId: string, approverEmail: string): Promise<number> {
  const started = performance.now();
  const approved = await apiCall(ctx, token, 'POST', `/api/payroll-runs/${runId}/approve`, { approver_email: approverEmail });
  if (approved.status !== 200) throw new Error(`approve: ${approved.status} ${JSON.stringify(approved.json)}`);
  return performance.now() - started;
}

export interface PaidRun {
  /** From the `pay` request until the run was seen `paid`. */
  seconds: number;
  /** Until `pay` answered 202. */
  acceptedSeconds: number;
  peakRssMb: number;
}

/**
 * Pays the approved run `runId` and polls it every `pollMs` until it is no longer `processing`;
 * throws unless every one of its `paystubs` is paid within `deadlineSeconds`.
 */
export async function payRun(
  ctx: BenchContext,
  token: string,
  runId: string,
  options: { paystubs: number; deadlineSeconds: number; pollMs?: number },
): Promise<PaidRun> {
  const peakRss = await serverPeakRss(ctx);
  const started = performance.now();
  try {
    const pay = await apiCall(ctx, token, 'POST', `/api/payroll-runs/${runId}/pay`);
    if (pay.status !== 202) throw new Error(`pay: ${pay.status} ${JSON.stringify(pay.json)}`);
    const acceptedSeconds = (performance.now() - started) / 1000;
    let current: Json = pay.json.run;
    while (current.status === 'processing' && performance.now() - started < options.deadlineSeconds * 1000) {
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 250));
      current = (await apiCall(ctx, token, 'GET', `/api/payroll-runs/${runId}`)).json.run;
    }
    const seconds = (performance.now() - started) / 1000;
    const peakRssMb = await peakRss.stop();
    if (current.status !== 'paid' || current.counts.paid !== options.paystubs)
      throw new Error(`run ${runId} ended ${current.status} with ${JSON.stringify(current.counts)} after ${seconds.toFixed(1)} s`);
    return { seconds, acceptedSeconds, peakRssMb };
  } finally {
    await peakRss.stop();
  }
}
