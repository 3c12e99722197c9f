import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** One API token per company; only its SHA-256 is stored. */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    scopes: text('scopes').array().notNull().default(sql`ARRAY['all']::text[]`),
    lastUsedAt: ts('last_used_at').notNull().defaultNow(),
    expiredAt: ts('expired_at'),
    revokedAt: ts('revoked_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('api_tokens_token_hash_key').on(t.tokenHash), index('api_tokens_company_idx').on(t.companyId)],
);

/**
 * One row: moved by statement triggers on api_tokens and companies at every change that can take
 * access away (migrations/0269_auth_generation.sql); each instance empties its authentication cache
 * when it sees it move (docs/decisions.md, "Authentication cache: up to 60 s, revocation within 1 s").
 */
export const authGeneration = pgTable('auth_generation', {
  id: smallint('id').primaryKey().default(1),
  generation: bigint('generation', { mode: 'number' }).notNull().default(0),
});

/** Durable background work (docs/decisions.md, "Jobs and mail"). */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull().default({}),
    runAt: ts('run_at').notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(10),
    lockedAt: ts('locked_at'),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    doneAt: ts('done_at'),
    failedAt: ts('failed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('jobs_due_idx').on(t.runAt).where(sql`done_at IS NULL AND failed_at IS NULL`)],
);

/** Every e-mail is written here in the transaction that causes it, then delivered by a job. */
export const outbox = pgTable(
  'outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id'),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: ts('sent_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** When delivery may start: later than created_at when the company is over its hourly quota (0070). */
    deliverAt: ts('deliver_at').notNull().defaultNow(),
    /** The company's messages numbered in delivery order, for the quota's count (0270). */
    companySeq: bigint('company_seq', { mode: 'number' }),
  },
  (t) => [index('outbox_to_idx').on(t.to, t.id), index('outbox_company_deliver_seq_idx').on(t.companyId, t.deliverAt, t.companySeq)],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    companyId: integer('company_id').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    responseBody: text('response_body'),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** The server instance running the request (server_instances.id); null on claims older than 0180. */
    owner: text('owner'),
    /** Random per claim and per takeover: only the holder may mark the key committed (fencing). */
    claimToken: text('claim_token'),
    /** Set in the handler's own transaction: the change is made, whatever happens to the answer. */
    committedAt: ts('committed_at'),
    resourceKind: text('resource_kind'),
    resourceId: text('resource_id'),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/** One row per running server; `last_seen` is renewed every few seconds (platform/idempotency-claims.ts). */
export const serverInstances = pgTable('server_instances', {
  id: text('id').primaryKey(),
  startedAt: ts('started_at').notNull().defaultNow(),
  lastSeen: ts('last_seen').notNull().defaultNow(),
});

/** Server-side secrets for signed links (0110), one per purpose; generated once, never sent anywhere. */
export const signingKeys = pgTable('signing_keys', {
  purpose: text('purpose').primaryKey(),
  secret: text('secret').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});
