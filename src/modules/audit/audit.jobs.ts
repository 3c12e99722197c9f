// The audit sealer (docs/audit.md, "The chain"): one recurring row that chains every event whose
// transaction has ended, every SEAL_EVERY_SECONDS. A run with nothing to seal is one short
// transaction (the watermark row); sealers on several instances take turns on that row.

import type { Db } from '../../db/client.js';
import { sealAuditEvents } from '../../platform/audit/index.js';
import type { JobDefinition } from '../../platform/jobs/queue.js';

export const AUDIT_SEAL = 'audit.seal';

declare module '../../platform/jobs/catalog.js' {
  interface JobPayloads {
    'audit.seal': Record<string, never>;
  }
}

/** How long an event may wait for its seal, at most, while the service runs. */
export const SEAL_EVERY_SECONDS = 2;

export function auditSealJob(db: Db): JobDefinition<typeof AUDIT_SEAL> {
  return {
    kind: AUDIT_SEAL,
    maxAttempts: 1_000_000,
    backoffSeconds: () => SEAL_EVERY_SECONDS,
    recurring: [{}],
    async handler(_payload, { log }) {
      const sealed = await sealAuditEvents(db);
      if (sealed > 0) log.debug({ sealed }, 'audit events sealed');
      return { retryInSeconds: SEAL_EVERY_SECONDS };
    },
  };
}
