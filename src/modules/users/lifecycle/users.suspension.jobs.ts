// The durable job `users.suspension-end` (docs/users.md, "The users rules"): it ends a suspension
// at `suspension_ends_at`, and only the suspension it was scheduled for (users.suspension.service.ts
// schedules it and says why a stale job is a no-op).
import type { JobDefinition } from '../../../platform/jobs/queue.js';
import { exponentialBackoff } from '../../../platform/jobs/queue.js';
import { announceUsers } from '../users.events.js';
import { lifecycleRepo } from './users.lifecycle.repo.js';

export const SUSPENSION_END = 'users.suspension-end';

declare module '../../../platform/jobs/catalog.js' {
  interface JobPayloads {
    /** `endsAt`: the ISO time the job was scheduled for; only a suspension ending exactly then is ended. */
    'users.suspension-end': { companyId: number; userId: number; endsAt: string };
  }
}

export function suspensionEndJob(): JobDefinition<typeof SUSPENSION_END> {
  return {
    kind: SUSPENSION_END,
    maxAttempts: 20,
    backoffSeconds: exponentialBackoff(10, 600),
    async handler({ companyId, userId, endsAt }, { db }) {
      // Only the suspension this job was scheduled for, and only once it is due.
      await db.transaction(async (tx) => {
        if (await lifecycleRepo.endDueSuspension(tx, companyId, userId, endsAt))
          await announceUsers(tx, companyId, [userId], 'user.unsuspended');
      });
    },
  };
}
