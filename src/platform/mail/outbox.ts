// E-mail goes into the outbox in the transaction that causes it and is delivered by a job, so a
// crash can delay an e-mail but never lose it (docs/decisions.md, "Jobs and mail").
import type { Transporter } from 'nodemailer';
import type { Config } from '../../config.js';
import type { Executor } from '../../db/client.js';
import { errorMessage } from '../guards.js';
import { exponentialBackoff, type JobDefinition } from '../jobs/queue.js';
import { type CompanyMailWindow, outboxRepo } from './outbox.repo.js';

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

declare module '../jobs/catalog.js' {
  interface JobPayloads {
    'mail.deliver': MailJobPayload;
  }
}

export interface Mailer {
  /** Writes the message and its delivery job; call inside the causing transaction. */
  send(executor: Executor, message: MailMessage): Promise<number>;
  /** Like `send` for many messages: one statement writes the outbox rows and their jobs (bulk imports). */
  sendMany(executor: Executor, messages: MailMessage[]): Promise<number[]>;
}

/** Default of MAIL_PER_COMPANY_PER_HOUR: a 10,000-row import (or a 10,000-employee run) mails everyone within the hour; a relay is held to that. */
export const DEFAULT_MAIL_PER_COMPANY_PER_HOUR = 10_000;
const HOUR_SECONDS = 3600;

export interface MailerOptions {
  /** Messages of one company delivered per hour; the rest wait in the outbox for a later hour. */
  perCompanyPerHour?: number;
}

/**
 * Every e-mail of the service goes through here, so this is the one place for the per-company quota:
 * several routes mail addresses the caller chose with text the caller wrote (I5 `notify_finance`,
 * invitations to `personal_email`, C2's super admin), which would otherwise make the service a relay.
 * Nothing is refused (a refusal half-way through a bulk import would leave it half done): a message
 * beyond the quota is written as usual but its delivery starts in a later hour, so a company gets
 * about `perCompanyPerHour` messages an hour out of the service however much it queues.
 */
export function createMailer(options: MailerOptions = {}): Mailer {
  const quota = options.perCompanyPerHour ?? DEFAULT_MAIL_PER_COMPANY_PER_HOUR;

  /**
   * Each message's delay in seconds from now (0 within the quota), its company's last delivery time
   * (it is not delivered before it) and its number among its company's messages.
   */
  async function place(executor: Executor, messages: MailMessage[]) {
    const companies = [...new Set(messages.map((m) => m.companyId).filter((id): id is number => typeof id === 'number'))];
    const windows = companies.length === 0 ? new Map<number, CompanyMailWindow>() : await outboxRepo.windows(executor, companies);
    // The company's messages due from an hour ago onwards: those delivered in the last hour plus
    // the ones already waiting.
    return messages.map((m) => {
      const window = typeof m.companyId === 'number' ? windows.get(m.companyId) : undefined;
      if (!window) return { waitSeconds: 0, notBefore: null, companySeq: null };
      const slot = window.dueInTheLastHour;
      window.dueInTheLastHour += 1;
      window.lastSeq += 1;
      return { waitSeconds: Math.floor(slot / quota) * HOUR_SECONDS, notBefore: window.lastDeliverAt, companySeq: window.lastSeq };
    });
  }

  const sendMany: Mailer['sendMany'] = async (executor, messages) => {
    if (messages.length === 0) return [];
    const placed = await place(executor, messages);
    // One statement: the outbox rows, then one job per MAIL_BATCH of them that share a delivery
    // time (now, or a later hour for messages beyond the quota).
    return outboxRepo.insertWithJobs(
      executor,
      messages.map((m, index) => ({
        companyId: m.companyId ?? null,
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: m.html ?? null,
        ...placed[index],
      })),
      MAIL_DELIVER,
      MAIL_BATCH,
    );
  };
  return {
    async send(executor, message) {
      const [id] = await sendMany(executor, [message]);
      return id;
    },
    sendMany,
  };
}

export function mailDeliveryJob(config: Config): JobDefinition<typeof MAIL_DELIVER> {
  let transport: Transporter | undefined;
  return {
    kind: MAIL_DELIVER,
    maxAttempts: 12,
    backoffSeconds: exponentialBackoff(30, 3600),
    async handler(payload, { db, log }) {
      const ids = 'outboxIds' in payload ? payload.outboxIds : [payload.outboxId];
      const pending = await outboxRepo.unsent(db, ids);
      if (pending.length === 0) return;
      if (!config.smtpUrl) {
        // No SMTP configured: the outbox row is the delivery (readable through GET /admin/outbox).
        log.info({ outboxIds: pending.map((m) => m.id) }, 'mail kept in outbox (SMTP_URL not set)');
        return;
      }
      // Loaded with the first message sent, not at start (docs/architecture.md, "Heavy libraries load at
      // first use"); awaited before the check, so that two deliveries at once still make one transport.
      const { default: nodemailer } = await import('nodemailer');
      transport ??= nodemailer.createTransport(pooled(config.smtpUrl));
      // Each message is marked sent as soon as the server accepts it, so a retry (or a crash and a
      // new lease) only sends the rest. One refused message does not hold back the others.
      const failures: string[] = [];
      for (const message of pending) {
        await outboxRepo.setAttempts(db, message.id, message.attempts + 1);
        try {
          await transport.sendMail({
            from: config.mailFrom,
            to: message.to,
            subject: message.subject,
            text: message.text,
            html: message.html ?? undefined,
          });
        } catch (error) {
          const reason = errorMessage(error);
          failures.push(`#${message.id}: ${reason}`);
          await outboxRepo.markFailed(db, message.id, reason);
          continue;
        }
        await outboxRepo.markSent(db, message.id);
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
