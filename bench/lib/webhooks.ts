// What the webhook scenarios share: a receiver process on 127.0.0.1 (bench/webhook-receiver.ts)
// behind an endpoint created through the real API, events queued the way the services record them
// (recordEvents, one statement, in a transaction), and waiting for the queue to empty.
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.js';
import { type DomainEvent, recordEvents } from '../../src/modules/webhooks/index.js';
import type { BenchContext } from '../scenario.js';
import { freePort, startNodeServer } from './processes.js';

export interface ReceiverStats {
  requests: number;
  distinct: number;
  firstAt: number;
  lastAt: number;
  verified: number;
  badSignatures: number;
  sampledTypes: Record<string, number>;
}

export interface BenchReceiver {
  endpointId: number;
  stats(): Promise<ReceiverStats>;
  reset(): Promise<void>;
  stop(): Promise<unknown>;
}

/** An endpoint of `company` subscribed to `events`, and the receiver process it points at. */
export async function startReceiver(ctx: BenchContext, company: { token: string }, events: string[] = ['*']): Promise<BenchReceiver> {
  const port = await freePort();
  // The endpoint first (its secret is shown once, in this answer), then the receiver that verifies with it.
  const res = await fetch(`${ctx.baseUrl}/api/webhook-endpoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${company.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook`, events, description: 'bench receiver' }),
  });
  const json = (await res.json()) as { endpoint?: { id: number }; secret?: string };
  if (res.status !== 201 || !json.endpoint || !json.secret)
    throw new Error(`POST /api/webhook-endpoints: ${res.status} ${JSON.stringify(json)}`);
  const receiver = await startNodeServer({ script: 'bench/webhook-receiver.ts', port, env: { BENCH_WEBHOOK_SECRET: json.secret } });
  const call = async (method: string, path: string) => {
    const answer = await fetch(`${receiver.baseUrl}${path}`, { method });
    return answer.status === 204 ? undefined : answer.json();
  };
  return {
    endpointId: json.endpoint.id,
    stats: () => call('GET', '/stats') as Promise<ReceiverStats>,
    reset: async () => {
      await call('POST', '/reset');
    },
    stop: async () => {
      receiver.peakRss.close();
      return receiver.stop();
    },
  };
}

/**
 * `count` paystub.paid events of `companyId`, with the body a settled paystub announces
 * (payroll-runs.events.ts), recorded in one transaction as a run's settlement records them.
 */
export async function queuePaystubEvents(ctx: BenchContext, companyId: number, count: number, tag: string): Promise<number> {
  const events: DomainEvent[] = Array.from({ length: count }, (_, i) => ({
    companyId,
    type: 'paystub.paid',
    data: {
      run_id: `TX-BENCH${tag}`,
      reference: `PS-BENCH-${tag}-${String(i).padStart(6, '0')}`,
      status: 'paid',
      net_pay: `${180_000 + (i % 97) * 7_919}.${String(i % 100).padStart(2, '0')}`,
      failure_reason: null,
      pay_period_start: '2031-03-01',
      pay_period_end: '2031-03-31',
    },
  }));
  return ctx.database.db.transaction((tx) => recordEvents(tx, events));
}

/** Deliveries of `endpointId` by status. */
export async function deliveryCounts(ctx: BenchContext, endpointId: number): Promise<Record<string, number>> {
  const rows = await queryRows<{ status: string; count: number }>(
    ctx.database.db,
    sql`SELECT status, count(*)::int AS count FROM webhook_deliveries WHERE endpoint_id = ${endpointId} GROUP BY status`,
  );
  return Object.fromEntries(rows.map((row) => [row.status, row.count]));
}

/** Polls until no delivery of `endpointId` is pending (every outcome written), or throws after `timeoutMs`. */
export async function waitDelivered(ctx: BenchContext, endpointId: number, timeoutMs: number): Promise<Record<string, number>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const counts = await deliveryCounts(ctx, endpointId);
    if (!counts.pending) return counts;
    if (Date.now() > until) throw new Error(`deliveries still pending after ${timeoutMs / 1000} s: ${JSON.stringify(counts)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
