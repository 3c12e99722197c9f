// An audit event as GET /api/audit-events answers it (docs/audit.md) and as a CSV record.
import type { CsvCell } from '../../platform/csv.js';
import type { AuditEventRow } from './audit.repo.js';

export function serializeAuditEvent(row: AuditEventRow) {
  return {
    id: `aud_${row.id}`,
    seq: row.seq,
    occurred_at: row.occurred_at,
    company_id: row.company_id,
    actor: { type: row.actor_type, id: row.actor_id, email: row.actor_email },
    action: row.action,
    target: { type: row.target_type, id: row.target_id },
    changes: row.changes ?? {},
    request_id: row.request_id,
    ip: row.ip,
    user_agent: row.user_agent,
    hash: row.hash,
    prev_hash: row.prev_hash,
  };
}

export const AUDIT_CSV_HEADER: CsvCell[] = [
  'id',
  'seq',
  'occurred_at',
  'actor_type',
  'actor_id',
  'actor_email',
  'action',
  'target_type',
  'target_id',
  'changes',
  'request_id',
  'ip',
  'user_agent',
  'prev_hash',
  'hash',
];

export function auditCsvRecord(row: AuditEventRow): CsvCell[] {
  return [
    `aud_${row.id}`,
    row.seq === null ? null : { number: String(row.seq) },
    row.occurred_at,
    row.actor_type,
    row.actor_id,
    row.actor_email,
    row.action,
    row.target_type,
    row.target_id,
    row.changes ? JSON.stringify(row.changes) : '',
    row.request_id,
    row.ip,
    row.user_agent,
    row.prev_hash,
    row.hash,
  ];
}
