// E-mail goes into the outbox in the transaction that causes it and is delivered by a job, so a
// crash can delay an e-mail but never lose it (decisions.md §8).
import { eq } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config.js';
import type { Executor } from '../../db/client.js';
import { jobs as jobsTable, outbox } from '../../db/schema/index.js';
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
      const rows = await executor
        .insert(outbox)
        .values(messages.map((m) => ({ companyId: m.companyId ?? null, to: m.to, subject: m.subject, text: m.text, html: m.html })))
        .returning({ id: outbox.id });
      const runAt = new Date();
      await executor
        .insert(jobsTable)
        .values(rows.map((row) => ({ kind: MAIL_DELIVER, payload: { outboxId: row.id }, runAt, maxAttempts: 12 })));
      return rows.map((row) => row.id);
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
