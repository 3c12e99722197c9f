// E-mail goes into the outbox in the transaction that causes it and is delivered by a job, so a
// crash can delay an e-mail but never lose it (decisions.md §8).
import { eq } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config.js';
import { type Executor, queryRows, sql } from '../../db/client.js';
import { outbox } from '../../db/schema/index.js';
import { exponentialBackoff, type JobDefinition, type JobQueue } from '../jobs/queue.js';

export interface MailMessage {
  companyId?: number | null;
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export const MAIL_DELIVER = 'mail.deliver';

export interface Mailer {
  /** Writes the message and its delivery job; call inside the causing transaction. */
  send(executor: Executor, message: MailMessage): Promise<number>;
  /** Like `send` for many messages: one outbox insert and one job insert (bulk imports). */
  sendMany(executor: Executor, messages: MailMessage[]): Promise<number[]>;
}

export function createMailer(jobs: JobQueue): Mailer {
  return {
    async send(executor, message) {
      const [row] = await executor
        .insert(outbox)
        .values({ companyId: message.companyId ?? null, to: message.to, subject: message.subject, text: message.text, html: message.html })
        .returning({ id: outbox.id });
      await jobs.enqueue(executor, MAIL_DELIVER, { outboxId: row.id });
      return row.id;
    },
    async sendMany(executor, messages) {
      if (messages.length === 0) return [];
      // One statement, one JSON parameter: outbox rows and their delivery jobs together.
      const payload = JSON.stringify(
        messages.map((m) => ({ company_id: m.companyId ?? null, to: m.to, subject: m.subject, text: m.text, html: m.html ?? null })),
      );
      const rows = await queryRows<{ id: number }>(
        executor,
        sql`WITH m AS (
              INSERT INTO outbox (company_id, "to", subject, text, html)
              SELECT v.company_id, v."to", v.subject, v.text, v.html
              FROM jsonb_to_recordset(${payload}::jsonb) AS v(company_id int, "to" text, subject text, text text, html text)
              RETURNING id)
            INSERT INTO jobs (kind, payload, run_at, max_attempts)
            SELECT ${MAIL_DELIVER}, jsonb_build_object('outboxId', m.id), now(), 12 FROM m
            RETURNING (payload->>'outboxId')::bigint AS id`,
      );
      return rows.map((row) => Number(row.id));
    },
  };
}

export function mailDeliveryJob(config: Config): JobDefinition<{ outboxId: number }> {
  let transport: Transporter | undefined;
  return {
    kind: MAIL_DELIVER,
    maxAttempts: 12,
    backoffSeconds: exponentialBackoff(30, 3600),
    async handler({ outboxId }, { db, log }) {
      const [message] = await db.select().from(outbox).where(eq(outbox.id, outboxId));
      if (!message || message.sentAt) return;
      if (!config.smtpUrl) {
        // No SMTP configured: the outbox row is the delivery (readable through GET /admin/outbox).
        log.info({ outboxId, to: message.to }, 'mail kept in outbox (SMTP_URL not set)');
        return;
      }
      transport ??= nodemailer.createTransport(config.smtpUrl);
      await db.update(outbox).set({ attempts: message.attempts + 1 }).where(eq(outbox.id, outboxId));
      try {
        await transport.sendMail({ from: config.mailFrom, to: message.to, subject: message.subject, text: message.text, html: message.html ?? undefined });
      } catch (error) {
        await db.update(outbox).set({ lastError: (error as Error).message }).where(eq(outbox.id, outboxId));
        throw error;
      }
      await db.update(outbox).set({ sentAt: new Date(), lastError: null }).where(eq(outbox.id, outboxId));
    },
  };
}
