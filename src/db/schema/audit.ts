// Tables of the audit log (owned by src/platform/audit); created by migrations/0220_audit_log.sql,
// sealed after the commit since 0262_audit_sealing.sql (audit_seal(): audit_seals, audit_heads).
import { bigint, boolean, customType, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** PostgreSQL's 64-bit transaction id, read as decimal text. */
const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });

/** Each company's chain head: the last sealed seq and hash, moved by the sealer. */
export const auditHeads = pgTable('audit_heads', {
  companyId: integer('company_id').primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull().default(0),
  hash: text('hash').notNull(),
});

/** Append-only (a trigger refuses UPDATE, DELETE and TRUNCATE); chained by audit_seals. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id').notNull(),
    /** The writing transaction's id: the sealer chains in (xid, id) order. */
    xid: xid8('xid').notNull(),
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
  },
  (t) => [
    index('audit_events_company_chain_idx').on(t.companyId, t.xid, t.id),
    index('audit_events_action_idx').on(t.companyId, t.action, t.xid, t.id),
    index('audit_events_target_idx').on(t.companyId, t.targetType, t.targetId, t.xid, t.id),
    index('audit_events_actor_idx').on(t.companyId, t.actorType, t.actorId, t.xid, t.id),
    index('audit_events_occurred_idx').on(t.companyId, t.occurredAt),
    index('audit_events_xid_idx').on(t.xid),
  ],
);

/** An event's place in its company's chain, written once by the sealer; append-only like the events. */
export const auditSeals = pgTable(
  'audit_seals',
  {
    eventId: bigint('event_id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [uniqueIndex('audit_seals_company_seq_key').on(t.companyId, t.seq)],
);

/** One row: every event whose xid is below sealed_xid is sealed. */
export const auditSealState = pgTable('audit_seal_state', {
  id: boolean('id').primaryKey().default(true),
  sealedXid: xid8('sealed_xid').notNull(),
});
