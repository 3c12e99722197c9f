// `payroll prune` (docs/operations.md, "History retention"): deletes finished jobs and finished
// webhook events older than their retention, in batches of BATCH rows, each batch its own short
// statement, so that it can run beside a live server (from cron, or by hand) without holding locks
// for long. Unfinished work (pending jobs, events with a pending delivery) is never deleted.
import type { Db } from '../db/client.js';
import { pruneWebhookHistory } from '../modules/webhooks/index.js';
import { queueRepo } from '../platform/jobs/queue.repo.js';

export interface Retention {
  /** Jobs done more than this many days ago (default 7). */
  jobsDays: number;
  /** Jobs failed for good more than this many days ago (default 30: an operator may still look at them). */
  failedJobsDays: number;
  /** Webhook events, with their deliveries log, more than this many days old (default 30). */
  webhookDays: number;
}

export const DEFAULT_RETENTION: Retention = { jobsDays: 7, failedJobsDays: 30, webhookDays: 30 };
const BATCH = 5000;

export async function prune(db: Db, retention: Retention, batch = BATCH): Promise<{ jobs: number; webhook_events: number }> {
  let jobs = 0;
  for (;;) {
    const gone = await queueRepo.pruneFinished(db, retention.jobsDays, retention.failedJobsDays, batch);
    jobs += gone;
    if (gone === 0) break;
  }
  let events = 0;
  for (;;) {
    const gone = await pruneWebhookHistory(db, retention.webhookDays, batch);
    events += gone;
    if (gone < batch) break;
  }
  return { jobs, webhook_events: events };
}
