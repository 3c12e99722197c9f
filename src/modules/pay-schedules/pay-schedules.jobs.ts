// The pay-schedules job (docs/payroll-runs.md, "Pay schedules"): SLOTS recurring rows, each every
// minute, create the runs of every schedule whose creation time has come, a batch at a time (the
// rows let several instances work at once, and a row a killed instance holds until its 300 s job
// lease ends does not stop the others); a schedule created or re-activated late enqueues a one-off
// row so its period is made at once.
import type { JobDefinition } from '../../platform/jobs/queue.js';
import { BATCH, PAY_SCHEDULES_DUE, type PaySchedulesService } from './pay-schedules.service.js';

declare module '../../platform/jobs/catalog.js' {
  interface JobPayloads {
    /** `{slot}`: a recurring row; `{once: true}`: a one-off turn (a schedule due at once). */
    'pay-schedules.due': { once?: boolean; slot?: number };
  }
}

const EVERY_SECONDS = 60;
const SLOTS = 4;

export function paySchedulesDueJob(service: PaySchedulesService): JobDefinition<typeof PAY_SCHEDULES_DUE> {
  return {
    kind: PAY_SCHEDULES_DUE,
    // The recurring row never fails for good: an unexpected error is logged and the next turn tries again.
    maxAttempts: 1_000_000,
    backoffSeconds: () => EVERY_SECONDS,
    recurring: Array.from({ length: SLOTS }, (_, slot) => ({ slot })),
    async handler(payload, { log }) {
      const step = await service.runDue();
      for (const err of step.errors) log.error({ err }, 'pay schedule: could not create a period run');
      if (step.claimed > 0) log.info({ claimed: step.claimed, created: step.created, failed: step.failed }, 'pay schedules');
      // A full batch: more may be due, so the next batch runs at once.
      if (step.claimed === BATCH) return { retryInSeconds: 0 };
      return payload.once ? undefined : { retryInSeconds: EVERY_SECONDS };
    },
  };
}
