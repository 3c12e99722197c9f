// recordAudit(tx, events): the one call a change makes to be audited (docs/audit.md). It runs in
// the change's own transaction (a change and its event commit together or not at all), takes the
// actor, request id, address and user agent from the audit scope (context.ts), keeps secrets out
// of the recorded changes and shortens account numbers to their last 4 digits.
import type { Executor } from '../../db/client.js';
import { type AuditRow, insertAuditRows } from './audit.repo.js';
import { type AuditActor, auditOrigin } from './context.js';

/** A field's value before and after; null for "none". */
export type FieldChange = [unknown, unknown];

export interface AuditEvent {
  companyId: number;
  /** `<resource>.<verb>`: user.updated, payroll_run.approved, token.regenerated. */
  action: string;
  target: { type: string; id: string | number };
  changes?: Record<string, FieldChange> | null;
  /** Only where the scope does not know better (a failed sign-in names who tried). */
  actor?: AuditActor;
}

const SECRET = /pass(word|code)|secret|token|api_?key|signing|^pin$|otp|cookie|authori[sz]ation/i;
const ACCOUNT = /account_?number|^nuban$/i;
const SECRET_MARK = '[secret]';

/** An account number as ••••1247 (the last 4 digits); anything else unchanged. */
export function maskAccount(value: unknown): unknown {
  if (value === null || value === undefined || value === '') return value ?? null;
  const text = String(value);
  return `••••${text.slice(-4)}`;
}

/** What may be recorded of a field: secrets never (only that they changed), account numbers as last 4. */
export function safeChange(field: string, change: FieldChange): FieldChange {
  if (SECRET.test(field)) return [SECRET_MARK, SECRET_MARK];
  if (ACCOUNT.test(field)) return [maskAccount(change[0]), maskAccount(change[1])];
  return [plain(change[0]), plain(change[1])];
}

const plain = (value: unknown): unknown =>
  value === undefined ? null : typeof value === 'bigint' ? value.toString() : value instanceof Date ? value.toISOString() : value;

/** The fields that differ between two snapshots of a resource, as `{field: [before, after]}`. */
export function diffFields(
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null | undefined,
  fields?: readonly string[],
) {
  const keys = fields ?? [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const changes: Record<string, FieldChange> = {};
  for (const key of keys) {
    const was = plain(before?.[key]);
    const now = plain(after?.[key]);
    if (JSON.stringify(was) !== JSON.stringify(now)) changes[key] = [was, now];
  }
  return changes;
}

function changesText(changes: AuditEvent['changes']): string | null {
  if (!changes) return null;
  const safe = Object.fromEntries(Object.entries(changes).map(([field, change]) => [field, safeChange(field, change)]));
  // Kobo are bigints, anywhere in a change: written as their decimal text, never a thrown TypeError.
  return Object.keys(safe).length === 0
    ? null
    : JSON.stringify(safe, (_key, value) => (typeof value === 'bigint' ? value.toString() : value));
}

/** Writes the events in the caller's transaction: one INSERT however many. */
export function recordAudit(executor: Executor, events: readonly AuditEvent[]): Promise<void> {
  if (events.length === 0) return Promise.resolve();
  const origin = auditOrigin();
  const rows: AuditRow[] = events.map((event) => {
    const actor = event.actor ?? origin.actor;
    return {
      companyId: event.companyId,
      actorType: actor.type,
      actorId: actor.id,
      actorEmail: actor.email ?? null,
      action: event.action,
      targetType: event.target.type,
      targetId: String(event.target.id),
      changes: changesText(event.changes),
      requestId: origin.requestId,
      ip: origin.ip,
      userAgent: origin.userAgent,
    };
  });
  return insertAuditRows(executor, rows);
}
