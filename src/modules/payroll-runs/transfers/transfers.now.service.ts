// A funded run's transfers sent and settled in this process, batch by batch, through the same
// send and settle steps as the jobs (transfers.jobs.ts), instead of waiting for the job worker.
// For the demo seed, on a sandbox without settlement delay: the run ends before the server
// listens. The batch jobs the funding queued still run later and find nothing left to do (a
// settled transfer is no longer open), so nothing is paid twice.
import { sendBatch, settleBatch, type TransferDeps } from './transfers.jobs.js';
import { transfersRepo } from './transfers.repo.js';

/** Returns true when every batch settled (false: the provider still reports some pending). */
export async function settleRunNow(deps: TransferDeps, companyId: number, runId: string): Promise<boolean> {
  let settled = true;
  for (const key of await transfersRepo.openBatches(deps.db, companyId, runId)) {
    await sendBatch(deps, key);
    if ((await settleBatch(deps, key)) !== undefined) settled = false;
  }
  return settled;
}
