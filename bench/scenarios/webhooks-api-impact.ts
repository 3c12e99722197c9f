// Webhook deliveries against the API's throughput (GET /api/users keeps >= 80% of its
// throughput while an import's or a run's events go out), with a receiver process on 127.0.0.1.
// 1. A 10,000-row U8 import by a company with an endpoint subscribed to every event: an import
//    announces ONE users.import.completed (never one per row), checked at the receiver.
// 2. The load that matters, a 10,000-paystub run's paystub.paid events (recorded as its settlement
//    records them, without the settlement's own work, so that only the deliveries are measured):
//    alternating rounds (as bench/lib/paired.ts, the VM's speed drifts) of GET /api/users?per_page=20
//    with nothing to deliver, then the same with 10,000 events just queued and going out; the median
//    of the rounds' ratios is the figure. Each round waits for the queue to empty before the next.
// BENCH_SMOKE (CI): 200 rows, 300 events, one round.

import { importCsv, timedBulkCreate } from '../lib/bulk-upload.js';
import { loadProblems, runLoad } from '../lib/load.js';
import { PAGE_PATH, usersFixture } from '../lib/users-fixture.js';
import { deliveryCounts, queuePaystubEvents, startReceiver, waitDelivered } from '../lib/webhooks.js';
import type { BenchContext, Scenario } from '../scenario.js';

const SMOKE = Boolean(process.env.BENCH_SMOKE);
const ROWS = SMOKE ? 200 : 10_000;
const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? (SMOKE ? 300 : 10_000));
const ROUNDS = Number(process.env.BENCH_PAIRED_ROUNDS || (SMOKE ? 1 : 5));
const ROUND_SECONDS = 3;

function importWithEndpoint(ctx: BenchContext, company: { id: number; token: string; domain: string }) {
  return timedBulkCreate(ctx, company.token, importCsv(company.domain, `h${company.id}`, ROWS));
}

const scenario: Scenario = {
  name: 'webhooks-api-impact',
  order: 61,
  async run(ctx) {
    const fixture = await usersFixture(ctx);
    const headers = { authorization: `Bearer ${fixture.token}` };
    const url = `${ctx.baseUrl}${PAGE_PATH}`;
    const sender = await ctx.newCompany();
    const receiver = await startReceiver(ctx, sender);
    try {
      // 1. The import: one event, whatever the number of rows.
      const seconds = await importWithEndpoint(ctx, sender);
      const counts = await waitDelivered(ctx, receiver.endpointId, 60_000);
      const stats = await receiver.stats();
      if (stats.distinct !== 1 || stats.sampledTypes['users.import.completed'] !== 1 || counts.delivered !== 1) {
        throw new Error(`a ${ROWS}-row import should announce one users.import.completed: ${JSON.stringify({ stats, counts })}`);
      }
      ctx.report({
        scenario: `U8 import of ${ROWS.toLocaleString('en-US')} rows by a company with a webhook endpoint`,
        rate: Math.round(ROWS / seconds),
        unit: 'rows/s',
        note: `its events: 1 delivery (users.import.completed, signature verified), so its deliveries cannot load the API`,
      });

      // 2. Alternating rounds: the list alone, then the list while a run's worth of events goes out.
      const rounds: { without: number; with: number; ratio: number; sent: number; pendingAfter: number; problem?: string }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const without = await runLoad({ url, headers, durationSeconds: ROUND_SECONDS, warmupSeconds: 1 });
        await receiver.reset();
        const queued = await queuePaystubEvents(ctx, sender.id, EVENTS, `I${round}`);
        if (queued !== EVENTS) throw new Error(`recorded ${queued} deliveries for ${EVENTS} events`);
        // Measure from the first delivery on (the job loop picks the job up within JOB_POLL_MS).
        const until = Date.now() + 30_000;
        while ((await receiver.stats()).requests === 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
        const startedAt = Date.now();
        const sentBefore = (await receiver.stats()).requests;
        const withDeliveries = await runLoad({ url, headers, durationSeconds: ROUND_SECONDS, warmupSeconds: 1 });
        const sent = ((await receiver.stats()).requests - sentBefore) / ((Date.now() - startedAt) / 1000);
        const pendingAfter = (await deliveryCounts(ctx, receiver.endpointId)).pending ?? 0;
        await waitDelivered(ctx, receiver.endpointId, 300_000);
        const after = await receiver.stats();
        if (after.distinct !== EVENTS || after.badSignatures > 0) throw new Error(`round ${round}: ${JSON.stringify(after)}`);
        rounds.push({
          without: without.requestsPerSecond,
          with: withDeliveries.requestsPerSecond,
          ratio: withDeliveries.requestsPerSecond / without.requestsPerSecond,
          sent,
          pendingAfter,
          problem: loadProblems(without) ?? loadProblems(withDeliveries),
        });
      }
      const median = (values: number[]) => {
        const sorted = [...values].sort((a, b) => a - b);
        const middle = Math.floor(sorted.length / 2);
        return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
      };
      const ratio = median(rounds.map((r) => r.ratio));
      // A round whose deliveries were all done before its load ended measured partly without them.
      const uncovered = SMOKE ? 0 : rounds.filter((r) => r.pendingAfter === 0).length;
      ctx.report({
        scenario: `GET ${PAGE_PATH} while ${EVENTS.toLocaleString('en-US')} webhook events go out, ${rounds.length} rounds alternating with none`,
        rate: median(rounds.map((r) => r.with)),
        unit: 'req/s',
        ratio,
        note:
          rounds.find((r) => r.problem)?.problem ??
          `${uncovered ? `INVALID: ${uncovered} round(s) ran out of deliveries; ` : ''}vs baseline = with/without, median (target >= 0.80); ` +
            `by round ${rounds.map((r) => `${r.ratio.toFixed(2)} (${r.without.toFixed(0)}->${r.with.toFixed(0)} req/s, ${r.sent.toFixed(0)} deliveries/s)`).join(', ')}`,
      });
    } finally {
      await receiver.stop();
    }
  },
};

export default scenario;
