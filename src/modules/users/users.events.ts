// The users module's webhook events (docs/webhooks.md): `data` is the user as GET /api/users/{id}
// answers it, read inside the transaction of the change so it is exactly what was committed.
import type { Executor } from '../../db/client.js';
import { diffFields } from '../../platform/audit/index.js';
import { type EventType, recordEvent } from '../webhooks/index.js';
import { usersRepo } from './users.repo.js';
import { serializeUser } from './users.serializer.js';

type Snapshot = Record<string, unknown>;

/** Users as the API shows them, by id: the "before" of an update's audit changes (docs/audit.md). */
export async function snapshotUsers(executor: Executor, companyId: number, ids: number[]): Promise<Map<number, Snapshot>> {
  const rows = await usersRepo.findManyByIds(executor, companyId, ids);
  return new Map(rows.map((row) => [row.user.id, serializeUser(row) as Snapshot]));
}

/**
 * `before` (from snapshotUsers) makes the audit event carry the fields that changed; `secretChanged`
 * adds that the password changed, never its value.
 */
export async function announceUsers(
  tx: Executor,
  companyId: number,
  ids: number[],
  type: EventType,
  before?: Map<number, Snapshot>,
  secretChanged?: string,
): Promise<void> {
  const rows = await usersRepo.findManyByIds(tx, companyId, ids);
  for (const row of rows) {
    const data = serializeUser(row) as Snapshot;
    const changes = before ? diffFields(before.get(row.user.id), data) : undefined;
    delete changes?.updated_at;
    if (changes && secretChanged) changes[secretChanged] = [null, null];
    await recordEvent(tx, companyId, type, data, changes);
  }
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
