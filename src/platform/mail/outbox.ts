// E-mail goes into the outbox in the transaction that causes it and is delivered by a job, so a
// crash can delay an e-mail but never lose it (decisions.md §8).
import { and, eq, inArray, isNull } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config.js';
import { type Executor, queryRows, sql } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import { outbox } from '../../db/schema/index.js';
import { exponentialBackoff, type JobDefinition } from '../jobs/queue.js';

export interface MailMessage {
  companyId?: number | null;
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export const MAIL_DELIVER = 'mail.deliver';
/**
 * Outbox rows per delivery job. A 10,000-row import queues 100 jobs, not 10,000; a job stays
 * far shorter than the queue's 300 s lease even over a slow SMTP server (about 1 s per message).
 */
export const MAIL_BATCH = 100;

/** `outboxIds` since batched delivery; `outboxId` in jobs queued before it, still honoured. */
export type MailJobPayload = { outboxIds: number[] } | { outboxId: number };

export interface Mailer {
  /** Writes the message and its delivery job; call inside the causing transaction. */
  send(executor: Executor, message: MailMessage): Promise<number>;
  /** Like `send` for many messages: one statement writes the outbox rows and their jobs (bulk imports). */
  sendMany(executor: Executor, messages: MailMessage[]): Promise<number[]>;
}

export function createMailer(): Mailer {
  const sendMany: Mailer['sendMany'] = async (executor, messages) => {
    if (messages.length === 0) return [];
    // One statement, one array parameter per column: the outbox rows, then one job per MAIL_BATCH of them.
    const column = (pick: (m: MailMessage) => string | number | null) => pgArray(messages.map(pick));
    const rows = await queryRows<{ ids: string[] }>(
      executor,
      sql`WITH m AS (
            INSERT INTO outbox (company_id, "to", subject, text, html)
            SELECT * FROM unnest(${column((m) => m.companyId ?? null)}::int[], ${column((m) => m.to)}::text[],
              ${column((m) => m.subject)}::text[], ${column((m) => m.text)}::text[], ${column((m) => m.html ?? null)}::text[])
            RETURNING id),
          numbered AS (SELECT id, (row_number() OVER (ORDER BY id) - 1) / ${MAIL_BATCH} AS batch FROM m),
          queued AS (
            INSERT INTO jobs (kind, payload, run_at, max_attempts)
            SELECT ${MAIL_DELIVER}, jsonb_build_object('outboxIds', jsonb_agg(id ORDER BY id)), now(), 12
            FROM numbered GROUP BY batch)
          SELECT array_agg(id ORDER BY id)::text[] AS ids FROM m`,
    );
    return (rows[0]?.ids ?? []).map(Number);
  };
  return {
    async send(executor, message) {
      const [id] = await sendMany(executor, [message]);
      return id;
    },
    sendMany,
  };
}

export function mailDeliveryJob(config: Config): JobDefinition<MailJobPayload> {
  let transport: Transporter | undefined;
  return {
    kind: MAIL_DELIVER,
    maxAttempts: 12,
    backoffSeconds: exponentialBackoff(30, 3600),
    async handler(payload, { db, log }) {
      const ids = 'outboxIds' in payload ? payload.outboxIds : [payload.outboxId];
      const pending = await db
        .select()
        .from(outbox)
        .where(and(inArray(outbox.id, ids), isNull(outbox.sentAt)))
        .orderBy(outbox.id);
      if (pending.length === 0) return;
      if (!config.smtpUrl) {
        // No SMTP configured: the outbox row is the delivery (readable through GET /admin/outbox).
        log.info({ outboxIds: pending.map((m) => m.id) }, 'mail kept in outbox (SMTP_URL not set)');
        return;
      }
      transport ??= nodemailer.createTransport(pooled(config.smtpUrl));
      // Each message is marked sent as soon as the server accepts it, so a retry (or a crash and a
      // new lease) only sends the rest. One refused message does not hold back the others.
      const failures: string[] = [];
      for (const message of pending) {
        await db
          .update(outbox)
          .set({ attempts: message.attempts + 1 })
          .where(eq(outbox.id, message.id));
        try {
          await transport.sendMail({
            from: config.mailFrom,
            to: message.to,
            subject: message.subject,
            text: message.text,
            html: message.html ?? undefined,
          });
        } catch (error) {
          const reason = (error as Error).message;
          failures.push(`#${message.id}: ${reason}`);
          await db.update(outbox).set({ lastError: reason }).where(eq(outbox.id, message.id));
          continue;
        }
        await db.update(outbox).set({ sentAt: new Date(), lastError: null }).where(eq(outbox.id, message.id));
      }
      if (failures.length > 0) throw new Error(`${failures.length} of ${pending.length} e-mails not delivered; ${failures[0]}`);
    },
    close() {
      transport?.close();
      transport = undefined;
    },
  };
}

/**
 * Reuses SMTP connections (nodemailer's pool, 5 connections) unless the URL says `pool=false`: a
 * connection per message costs a TCP and SMTP handshake (about 100 ms) for every e-mail of a batch.
 */
function pooled(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
  return url.toString();
}
