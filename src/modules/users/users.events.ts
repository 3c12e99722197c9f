// The users module's webhook events (docs/webhooks.md): `data` is the user as GET /api/users/{id}
// answers it, read inside the transaction of the change so it is exactly what was committed.
import type { Executor } from '../../db/client.js';
import { type EventType, recordEvent } from '../webhooks/index.js';
import { usersRepo } from './users.repo.js';
import { serializeUser } from './users.serializer.js';

export async function announceUsers(tx: Executor, companyId: number, ids: number[], type: EventType): Promise<void> {
  const rows = await usersRepo.findManyByIds(tx, companyId, ids);
  for (const row of rows) await recordEvent(tx, companyId, type, serializeUser(row));
}

/** One event per bulk upload, with its summary (never one per row). */
export function announceImport(executor: Executor, companyId: number, operation: 'create' | 'update', report: ImportReport) {
  const { status, summary, successes, failures } = report;
  return recordEvent(executor, companyId, 'users.import.completed', {
    operation,
    status,
    summary,
    succeeded: successes.length,
    failed: failures.length,
    user_ids: successes.map((success) => success.id),
  });
}

interface ImportReport {
  status: string;
  summary: string;
  successes: { id: number | null }[];
  failures: unknown[];
}
