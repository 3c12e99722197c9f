// The daily remittance deadline check (docs/compliance.md, "Filings and deadlines"): one recurring
// row, hourly; each company that paid salaries lately is checked once a Lagos day (its cursor in
// remittance_deadline_checks), DEADLINE_BATCH at a time, and each notice goes out once.
import type { JobDefinition } from '../../platform/jobs/queue.js';
import { DEADLINE_BATCH, type FilingsService } from './filings.service.js';

export const REMITTANCE_DEADLINES = 'remittances.deadlines';

declare module '../../platform/jobs/catalog.js' {
  interface JobPayloads {
    'remittances.deadlines': Record<string, never>;
  }
}

const EVERY_SECONDS = 3600;

export function remittanceDeadlinesJob(service: FilingsService): JobDefinition<typeof REMITTANCE_DEADLINES> {
  return {
    kind: REMITTANCE_DEADLINES,
    maxAttempts: 1_000_000,
    backoffSeconds: () => 300,
    recurring: [{}],
    async handler(_payload, { log }) {
      const step = await service.checkDeadlines();
      for (const err of step.errors) log.error({ err }, 'remittance deadlines: a company could not be checked');
      if (step.notices > 0) log.info(step, 'remittance deadlines');
      return { retryInSeconds: step.companies === DEADLINE_BATCH ? 0 : EVERY_SECONDS };
    },
  };
}
