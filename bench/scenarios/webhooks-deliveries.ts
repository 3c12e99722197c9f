// Webhook deliveries/s (target >= 500/s): EVENTS paystub.paid events recorded in one statement for
// an endpoint pointing at a receiver process on 127.0.0.1 (bench/webhook-receiver.ts: answers 200,
// verifies every 25th signature with standardwebhooks). The real server's job loop picks them up
// and sends them; the rate is measured at the receiver, from the first request to the last, and
// every delivery must end `delivered` with each webhook-id seen (at least) once. BENCH_SMOKE (CI):
// 300 events.
import { cpuSeconds } from '../lib/processes.js';
import { deliveryCounts, queuePaystubEvents, startReceiver, waitDelivered } from '../lib/webhooks.js';
import type { Scenario } from '../scenario.js';

const SMOKE = Boolean(process.env.BENCH_SMOKE);
const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? (SMOKE ? 300 : 10_000));
const RUNS = Number(process.env.BENCH_WEBHOOK_RUNS ?? (SMOKE ? 1 : 3));

const scenario: Scenario = {
  name: 'webhooks-deliveries',
  order: 60,
  async run(ctx) {
    const company = await ctx.newCompany();
    const receiver = await startReceiver(ctx, company);
    try {
      const rates: number[] = [];
      let verified = 0;
      let duplicates = 0;
      const serverCpuMs: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        await receiver.reset();
        const cpuBefore = cpuSeconds(ctx.serverPid) ?? 0;
        const queued = await queuePaystubEvents(ctx, company.id, EVENTS, `R${run}`);
        if (queued !== EVENTS) throw new Error(`recorded ${queued} deliveries for ${EVENTS} events`);
        const counts = await waitDelivered(ctx, receiver.endpointId, 300_000);
        const stats = await receiver.stats();
        serverCpuMs.push((((cpuSeconds(ctx.serverPid) ?? 0) - cpuBefore) * 1000) / EVENTS);
        if (stats.distinct !== EVENTS) throw new Error(`the receiver saw ${stats.distinct} distinct webhook-ids of ${EVENTS}`);
        if (stats.badSignatures > 0) throw new Error(`${stats.badSignatures} signatures did not verify`);
        const delivered = counts.delivered ?? 0;
        if (delivered !== EVENTS * (run + 1))
          throw new Error(`deliveries by status ${JSON.stringify(await deliveryCounts(ctx, receiver.endpointId))}`);
        rates.push((stats.requests - 1) / Math.max(0.001, (stats.lastAt - stats.firstAt) / 1000));
        verified += stats.verified;
        duplicates += stats.requests - stats.distinct;
      }
      const sorted = [...rates].sort((a, b) => a - b);
      ctx.report({
        scenario: `webhook deliveries to a local receiver (${EVENTS.toLocaleString('en-US')} events)`,
        rate: sorted[Math.floor(sorted.length / 2)],
        unit: 'deliveries/s',
        note: `median of ${RUNS} (${rates.map((rate) => rate.toFixed(0)).join(', ')}); first to last request at the receiver; ${verified} signatures verified, ${duplicates} repeated; server CPU ${serverCpuMs.map((ms) => ms.toFixed(2)).join(', ')} ms per delivery; target >= 500/s`,
      });
    } finally {
      await receiver.stop();
    }
  },
};

export default scenario;
