// SQL of webhook endpoints and their deliveries log. Endpoint methods take (executor, companyId, ...)
// and only ever touch that company's rows; the sender's methods (claim, outcomes) are in
// webhooks.sender.repo.ts.
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema/index.js';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

export interface DeliveryRow {
  id: number;
  event_id: string;
  event_type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: Date | string | null;
  next_attempt_at: Date | string | null;
  created_at: Date | string;
}

export interface NewEndpoint {
  url: string;
  description: string | null;
  events: string[];
  includeChildren: boolean;
  secretEncrypted: string;
  createdVia: 'token' | 'console';
  createdByCompanyId: number | null;
  createdByTokenId: number | null;
}

export type EndpointChanges = Partial<Pick<EndpointRow, 'url' | 'description' | 'events' | 'includeChildren' | 'disabled'>>;

export const webhooksRepo = {
  async insert(executor: Executor, companyId: number, endpoint: NewEndpoint): Promise<EndpointRow> {
    const [row] = await executor
      .insert(webhookEndpoints)
      .values({ companyId, ...endpoint })
      .returning();
    return row;
  },

  async count(executor: Executor, companyId: number): Promise<number> {
    const [row] = await executor.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.companyId, companyId));
    return Number(row.n);
  },

  page(executor: Executor, companyId: number, limit: number, offset: number): Promise<EndpointRow[]> {
    return executor
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.companyId, companyId))
      .orderBy(desc(webhookEndpoints.id))
      .limit(limit)
      .offset(offset);
  },

  async find(executor: Executor, companyId: number, id: number): Promise<EndpointRow | undefined> {
    const [row] = await executor
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.id, id)));
    return row;
  },

  /** Re-enabling clears the failure streak and the reason. */
  async update(executor: Executor, companyId: number, id: number, changes: EndpointChanges): Promise<EndpointRow | undefined> {
    const enabling = changes.disabled === false ? { failingSince: null, disabledReason: null } : {};
    const disabling = changes.disabled === true ? { disabledReason: 'Disabled through the API.' } : {};
    const [row] = await executor
      .update(webhookEndpoints)
      .set({ ...changes, ...enabling, ...disabling, updatedAt: sql`now()` })
      .where(and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.id, id)))
      .returning();
    return row;
  },

  async remove(executor: Executor, companyId: number, id: number): Promise<boolean> {
    const rows = await executor
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.id, id)))
      .returning({ id: webhookEndpoints.id });
    return rows.length > 0;
  },

  /** The current secret becomes the previous one (signing on for `overlapSeconds`), the new one current. */
  async rotate(executor: Executor, companyId: number, id: number, secretEncrypted: string, overlapSeconds: number) {
    const [row] = await executor
      .update(webhookEndpoints)
      .set({
        previousSecretEncrypted: sql`${webhookEndpoints.secretEncrypted}`,
        previousSecretExpiresAt: sql`now() + make_interval(secs => ${overlapSeconds})`,
        secretEncrypted,
        updatedAt: sql`now()`,
      })
      .where(and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.id, id)))
      .returning();
    return row as EndpointRow | undefined;
  },

  async countDeliveries(executor: Executor, endpointId: number): Promise<number> {
    const [row] = await executor.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
    return Number(row.n);
  },

  deliveries(executor: Executor, endpointId: number, limit: number, offset: number): Promise<DeliveryRow[]> {
    return queryRows<DeliveryRow>(
      executor,
      sql`SELECT d.id, d.event_id, ev.type AS event_type, d.status, d.attempts, d.last_status_code, d.last_error,
                 d.last_attempt_at, d.next_attempt_at, d.created_at
          FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id
          WHERE d.endpoint_id = ${endpointId}
          ORDER BY d.id DESC LIMIT ${limit} OFFSET ${offset}`,
    );
  },

  /** Puts a delivery back in the queue, due now, with a fresh schedule; undefined when not the endpoint's. */
  async requeue(executor: Executor, endpointId: number, deliveryId: number): Promise<DeliveryRow | undefined> {
    const rows = await queryRows<DeliveryRow>(
      executor,
      sql`WITH requeued AS (
            UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = now(), locked_until = NULL
            WHERE id = ${deliveryId} AND endpoint_id = ${endpointId}
            RETURNING *
          ), wake AS (
            INSERT INTO jobs (kind, payload, run_at, max_attempts)
            SELECT 'webhooks.deliver', '{}'::jsonb, now(), 10 WHERE EXISTS (SELECT 1 FROM requeued)
          )
          SELECT d.id, d.event_id, ev.type AS event_type, d.status, d.attempts, d.last_status_code, d.last_error,
                 d.last_attempt_at, d.next_attempt_at, d.created_at
          FROM requeued d JOIN webhook_events ev ON ev.id = d.event_id`,
    );
    return rows[0];
  },
};
