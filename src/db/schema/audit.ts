// Tables of the audit log (owned by src/platform/audit); created by migrations/0220_audit_log.sql.
// The chain columns (seq, prev_hash, hash, occurred_at) are set by the database's insert trigger.
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Each company's chain head: the last seq and hash, locked by the insert trigger. */
export const auditHeads = pgTable('audit_heads', {
  companyId: integer('company_id').primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull().default(0),
  hash: text('hash').notNull(),
});

/** Append-only (a trigger refuses UPDATE, DELETE and TRUNCATE). */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    actorType: text('actor_type').notNull(),
    actorId: text('actor_id').notNull(),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    changes: jsonb('changes'),
    requestId: text('request_id'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    uniqueIndex('audit_events_company_seq_key').on(t.companyId, t.seq),
    index('audit_events_action_idx').on(t.companyId, t.action, t.seq),
    index('audit_events_target_idx').on(t.companyId, t.targetType, t.targetId, t.seq),
    index('audit_events_actor_idx').on(t.companyId, t.actorType, t.actorId, t.seq),
    index('audit_events_occurred_idx').on(t.companyId, t.occurredAt),
  ],
);
