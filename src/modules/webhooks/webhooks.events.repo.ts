// The event recorder's SQL: ONE statement per call, in the caller's transaction, however many
// events and endpoints. It finds the endpoints each event reaches (the company's own, and its
// ancestors' with include_children, enabled, subscribed to the type, and whose creator may read it
// now: webhooks.scopes.rules.ts), writes the events that
// reach at least one, one pending delivery per (event, endpoint), and, if any delivery was
// written, one `webhooks.deliver` job row to wake the sender (the shape JobQueue.enqueue writes).
import { type Placeholder, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import { readableSql } from './webhooks.scopes.repo.js';

export interface EventRow {
  id: string;
  companyId: number;
  type: string;
  body: string;
  /** Only this endpoint (webhook.test); otherwise every matching endpoint. */
  endpointId?: number;
}

export const DELIVER_JOB = 'webhooks.deliver';

/** Writes the events that reach an endpoint and their deliveries; returns how many deliveries. */
export async function insertEvents(executor: Executor, events: EventRow[]): Promise<number> {
  if (events.length === 0) return 0;
  const rows = await queryRows<{ deliveries: number }>(
    executor,
    sql`WITH RECURSIVE input AS (
          SELECT * FROM unnest(${pgArray(events.map((e) => e.id))}::text[], ${pgArray(events.map((e) => e.companyId))}::int[],
                               ${pgArray(events.map((e) => e.type))}::text[], ${pgArray(events.map((e) => e.body))}::text[],
                               ${pgArray(events.map((e) => e.endpointId ?? null))}::int[])
            AS t(id, company_id, type, body, only_endpoint)
        ), chain(origin, id, created_by, depth) AS (
          SELECT c.id, c.id, c.created_by, 0 FROM companies c WHERE c.id IN (SELECT company_id FROM input)
          UNION ALL
          SELECT chain.origin, c.id, c.created_by, chain.depth + 1 FROM companies c JOIN chain ON c.id = chain.created_by
          WHERE chain.depth < 64
        ), matched AS (
          SELECT i.id AS event_id, e.id AS endpoint_id
          FROM input i
          JOIN chain ch ON ch.origin = i.company_id
          JOIN webhook_endpoints e ON e.company_id = ch.id AND (ch.depth = 0 OR e.include_children)
          WHERE NOT e.disabled
            AND (i.only_endpoint = e.id OR (i.only_endpoint IS NULL AND ('*' = ANY(e.events) OR i.type = ANY(e.events))))
            AND ${readableSql('e', sql`i.type`)}
        ), written AS (
          INSERT INTO webhook_events (id, company_id, type, body)
          SELECT id, company_id, type, body FROM input WHERE id IN (SELECT event_id FROM matched)
          RETURNING id
        ), deliveries AS (
          INSERT INTO webhook_deliveries (endpoint_id, event_id, next_attempt_at)
          SELECT m.endpoint_id, w.id, now() FROM matched m JOIN written w ON w.id = m.event_id
          RETURNING id
        ), wake AS (
          INSERT INTO jobs (kind, payload, run_at, max_attempts)
          SELECT ${DELIVER_JOB}, '{}'::jsonb, now(), 10 WHERE EXISTS (SELECT 1 FROM deliveries)
          RETURNING id
        )
        SELECT (SELECT count(*) FROM deliveries)::int AS deliveries, (SELECT count(*) FROM wake)::int AS woken`,
  );
  return rows[0]?.deliveries ?? 0;
}

/**
 * True when an enabled endpoint sits on the company or on one of its ancestors (the chain
 * insertEvents walks), i.e. when an event of the company could reach anyone; include_children, the
 * subscribed types and the creator's scopes are left to insertEvents. A hot write with nothing to
 * announce when false (U3) folds this into a statement it sends anyway and skips the recorder's
 * statement (docs/webhooks.md, "The event recorder"). `companyId` may be a placeholder of a
 * statement written once (db/prepared.ts namedStatement).
 */
export const webhookAudienceSql = (companyId: number | Placeholder) =>
  sql<boolean>`EXISTS (WITH RECURSIVE chain(id, created_by, depth) AS (
      SELECT c.id, c.created_by, 0 FROM companies c WHERE c.id = ${companyId}
      UNION ALL
      SELECT c.id, c.created_by, chain.depth + 1 FROM companies c JOIN chain ON c.id = chain.created_by WHERE chain.depth < 64
    ) SELECT 1 FROM chain JOIN webhook_endpoints e ON e.company_id = chain.id WHERE NOT e.disabled)`;

/**
 * Deletes up to `batch` webhook events made more than `days` ago none of whose deliveries is still
 * pending, with their deliveries (delivered or failed: the endpoint's log loses them), in one
 * statement; how many events. webhook_events_created_idx (0261) finds them by age.
 */
export async function pruneWebhookHistory(executor: Executor, days: number, batch: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    executor,
    sql`WITH old AS (
          SELECT e.id FROM webhook_events e
          WHERE e.created_at < now() - make_interval(days => ${days})
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
          ORDER BY e.created_at LIMIT ${batch}),
        deliveries AS (DELETE FROM webhook_deliveries d USING old WHERE d.event_id = old.id RETURNING 1),
        events AS (DELETE FROM webhook_events e USING old WHERE e.id = old.id RETURNING 1)
        SELECT (SELECT count(*)::int FROM events) AS n, (SELECT count(*)::int FROM deliveries) AS deliveries`,
  );
  return row.n;
}
