// SQL of the sender: claim due deliveries under a lease (FOR UPDATE SKIP LOCKED, so several workers
// never send one attempt twice while the lease holds), write a batch of outcomes in one statement,
// keep each endpoint's failure streak and disable endpoints failing for too long.
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import { readableSql } from './webhooks.scopes.repo.js';

export interface ClaimedDelivery {
  id: number;
  attempts: number;
  event_id: string;
  body: string;
  endpoint_id: number;
  company_id: number;
  url: string;
  disabled: boolean;
  /** The endpoint's creator may still read the event (webhooks.scopes.rules.ts): else it is not sent. */
  readable: boolean;
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
}

export interface Outcome {
  id: number;
  status: 'pending' | 'delivered' | 'failed';
  /** Seconds until the next attempt when pending. */
  retryInSeconds: number | null;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
}

export const senderRepo = {
  async claim(executor: Executor, limit: number, leaseSeconds: number): Promise<ClaimedDelivery[]> {
    return queryRows<ClaimedDelivery>(
      executor,
      sql`WITH claimed AS (
            UPDATE webhook_deliveries SET locked_until = now() + make_interval(secs => ${leaseSeconds}),
              attempts = attempts + 1, last_attempt_at = now()
            WHERE id IN (
              SELECT id FROM webhook_deliveries
              WHERE status = 'pending' AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
              ORDER BY next_attempt_at LIMIT ${limit}
              FOR UPDATE SKIP LOCKED)
            RETURNING id, attempts, event_id, endpoint_id
          )
          SELECT c.id, c.attempts, c.event_id, ev.body, c.endpoint_id, e.company_id, e.url, e.disabled,
                 ${readableSql('e', sql`ev.type`)} AS readable, e.secret_encrypted,
                 CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret_encrypted END AS previous_secret_encrypted
          FROM claimed c JOIN webhook_events ev ON ev.id = c.event_id JOIN webhook_endpoints e ON e.id = c.endpoint_id
          ORDER BY c.id`,
    );
  },

  /** Writes every outcome of a batch (one statement), only where this worker's claim still holds. */
  async recordOutcomes(executor: Executor, outcomes: Outcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    await executor.execute(
      sql`UPDATE webhook_deliveries d SET
            status = o.status,
            next_attempt_at = CASE WHEN o.status = 'pending' THEN now() + make_interval(secs => o.retry_in) END,
            locked_until = NULL,
            last_status_code = o.status_code,
            last_error = o.error,
            last_response_body = o.response_body,
            delivered_at = CASE WHEN o.status = 'delivered' THEN now() END
          FROM unnest(${pgArray(outcomes.map((o) => o.id))}::int[], ${pgArray(outcomes.map((o) => o.status))}::text[],
                      ${pgArray(outcomes.map((o) => o.retryInSeconds))}::float8[], ${pgArray(outcomes.map((o) => o.statusCode))}::int[],
                      ${pgArray(outcomes.map((o) => o.error))}::text[], ${pgArray(outcomes.map((o) => o.responseBody))}::text[])
            AS o(id, status, retry_in, status_code, error, response_body)
          WHERE d.id = o.id AND d.status = 'pending'`,
    );
  },

  /**
   * A 2xx ends an endpoint's failure streak; a failure starts one if none is running. Returns the
   * endpoints whose streak is now older than `disableAfterSeconds`, disabled here (once).
   */
  async updateStreaks(executor: Executor, succeeded: number[], failed: number[], disableAfterSeconds: number) {
    if (succeeded.length > 0) {
      await executor.execute(
        sql`UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ANY(${pgArray(succeeded)}::int[]) AND failing_since IS NOT NULL`,
      );
    }
    const failingOnly = failed.filter((id) => !succeeded.includes(id));
    if (failingOnly.length === 0) return [];
    await executor.execute(
      sql`UPDATE webhook_endpoints SET failing_since = now() WHERE id = ANY(${pgArray(failingOnly)}::int[]) AND failing_since IS NULL`,
    );
    return queryRows<{ id: number; company_id: number; url: string }>(
      executor,
      sql`UPDATE webhook_endpoints SET disabled = true, updated_at = now(),
            disabled_reason = 'Every delivery failed for 5 days.'
          WHERE id = ANY(${pgArray(failingOnly)}::int[]) AND NOT disabled
            AND failing_since <= now() - make_interval(secs => ${disableAfterSeconds})
          RETURNING id, company_id, url`,
    );
  },

  /** Active administrators' e-mail addresses of a company (who hears that an endpoint was disabled). */
  async adminEmails(executor: Executor, companyId: number): Promise<string[]> {
    const rows = await queryRows<{ email: string }>(
      executor,
      // Not exited (docs/users.md, "Leavers": from the day after exit_date, Lagos time); written out
      // here because the users module builds on this one (its events), not the other way round.
      sql`SELECT email FROM users WHERE company_id = ${companyId} AND deleted_at IS NULL AND is_active
            AND (exit_date IS NULL OR exit_date >= ((now() AT TIME ZONE 'UTC') + interval '1 hour')::date)
            AND 'admin' = ANY(roles) ORDER BY id LIMIT 50`,
    );
    return rows.map((row) => row.email);
  },

  /** Ends every lease of a pending delivery (their sender is known to be gone); how many. */
  async releaseLeases(executor: Executor): Promise<number> {
    const rows = await queryRows<{ id: number }>(
      executor,
      sql`UPDATE webhook_deliveries SET locked_until = NULL WHERE status = 'pending' AND locked_until IS NOT NULL RETURNING id`,
    );
    return rows.length;
  },

  /** Seconds until the latest lease of a pending delivery in flight ends (null: none in flight). */
  async secondsUntilLeaseEnds(executor: Executor): Promise<number | null> {
    const rows = await queryRows<{ seconds: number | string | null }>(
      executor,
      sql`SELECT EXTRACT(EPOCH FROM (max(locked_until) - now())) AS seconds
          FROM webhook_deliveries WHERE status = 'pending' AND locked_until > now()`,
    );
    const seconds = rows[0]?.seconds;
    return seconds === null || seconds === undefined ? null : Math.max(0, Number(seconds));
  },
};

/** Active administrators' e-mail addresses of a company, for the modules that e-mail them (webhooks, pay schedules, filings). */
export const adminEmails = (executor: Executor, companyId: number): Promise<string[]> => senderRepo.adminEmails(executor, companyId);
