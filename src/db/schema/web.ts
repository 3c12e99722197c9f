// Tables of the web console (src/web), created by migrations/0050_web_console.sql (+ 0051). That migration
// also adds the expression index users (lower(email)) for sign-in; lower(personal_email) is
// users_personal_email_lower_idx (0030).
import { bigserial, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A signed-in console session; only the SHA-256 of the cookie value is stored. */
export const webSessions = pgTable(
  'web_sessions',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    csrfToken: text('csrf_token').notNull(),
    userId: integer('user_id').notNull(),
    companyId: integer('company_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('web_sessions_token_hash_key').on(t.tokenHash),
    index('web_sessions_user_idx').on(t.userId),
    index('web_sessions_company_idx').on(t.companyId),
    index('web_sessions_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Sign-in attempts not (yet) followed by a success, one counter per (IP, account) and per IP;
 * `createdAt` starts the key's throttle window (migrations 0050, 0067).
 */
export const webLoginFailures = pgTable(
  'web_login_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    keyHash: text('key_hash').notNull(),
    attempts: integer('attempts').notNull().default(1),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('web_login_failures_key_hash_key').on(t.keyHash), index('web_login_failures_created_idx').on(t.createdAt)],
);

/** Password-reset links of the console (migration 0240): the SHA-256 of the secret, single use, 30 minutes. */
export const webPasswordResets = pgTable(
  'web_password_resets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenHash: text('token_hash').notNull(),
    companyId: integer('company_id').notNull(),
    userId: integer('user_id').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('web_password_resets_token_hash_key').on(t.tokenHash),
    index('web_password_resets_user_idx').on(t.companyId, t.userId),
  ],
);
