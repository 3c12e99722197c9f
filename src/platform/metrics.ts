// Prometheus metrics: request count and latency by route and status (GET /metrics), and whether
// the rate limits are on their per-instance fallback.
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { RateLimitStore } from './ratelimit/limiter.js';

export function registerMetrics(app: FastifyInstance, limiter: RateLimitStore): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'ratelimit_redis_fallback',
    help: "1 while Redis is unreachable and this instance counts rate limits in its own memory (docs/operations.md, 'Redis down')",
    registers: [registry],
    collect() {
      this.set(limiter.mode === 'fallback' ? 1 : 0);
    },
  });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests', labelNames, registers: [registry] });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  // prom-client hashes a label object on every inc and observe: keep each combination's children
  // (a few hundred at most: routes × methods × statuses).
  const children = new Map<string, { requests: { inc(): void }; latency: { observe(value: number): void } }>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = String(reply.statusCode);
    const key = `${request.method} ${status} ${route}`;
    let child = children.get(key);
    if (!child) {
      const labels = { method: request.method, route, status };
      child = { requests: requests.labels(labels), latency: latency.labels(labels) };
      children.set(key, child);
    }
    child.requests.inc();
    child.latency.observe(reply.elapsedTime / 1000);
    done(); // callback-style: it never waits
  });
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
  return registry;
}
