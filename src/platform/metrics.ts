// Prometheus metrics: request count and latency by route and status, and whether the rate limits
// are on their per-instance fallback. They name every route's traffic, so they are not public
// (docs/operations.md, "Health, metrics, logs"): GET /metrics on the public port only with
// METRICS_TOKEN (a 404 like any unknown path without it), and with METRICS_PORT on a listener of
// their own bound to loopback, which serves nothing else.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { RateLimitStore } from './ratelimit/limiter.js';

/** The METRICS_PORT listener is reachable from this host only. */
export const METRICS_HOST = '127.0.0.1';

export interface MetricsOptions {
  limiter: RateLimitStore;
  /** METRICS_TOKEN: `Authorization: Bearer <token>` opens GET /metrics on the public port. */
  token: string | undefined;
  /** METRICS_PORT: a loopback listener serving only GET /metrics (0: any free port, for tests). */
  port: number | undefined;
  /** The slow-client limits of the public port, applied to the metrics listener too. */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
}

export interface Metrics {
  registry: Registry;
  /** Starts the METRICS_PORT listener (closed with the app); its port, or undefined without METRICS_PORT. */
  listen(): Promise<number | undefined>;
}

const digest = (value: string) => crypto.createHash('sha256').update(value).digest();

/** Bearer token check in constant time: SHA-256 digests have one length whatever was sent. */
function bearerMatches(expected: Buffer, header: string | undefined): boolean {
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  const equal = crypto.timingSafeEqual(digest(match?.[1] ?? ''), expected);
  return equal && match !== null;
}

export function registerMetrics(app: FastifyInstance, options: MetricsOptions): Metrics {
  const { limiter } = options;
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
  const { token } = options;
  if (token !== undefined) {
    const expected = digest(token);
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (!bearerMatches(expected, request.headers.authorization)) {
        return reply.status(401).header('WWW-Authenticate', 'Bearer').send({ error: 'Unauthorized' });
      }
      reply.type(registry.contentType);
      return registry.metrics();
    });
  }

  let listener: http.Server | undefined;
  app.addHook('onClose', async () => {
    if (!listener) return;
    const closed = new Promise((resolve) => listener?.close(resolve));
    listener.closeAllConnections();
    await closed;
  });
  return {
    registry,
    async listen() {
      if (options.port === undefined || listener) return (listener?.address() as AddressInfo | undefined)?.port;
      listener = metricsListener(registry, options);
      const server = listener;
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port, METRICS_HOST, () => {
          server.off('error', reject);
          resolve();
        });
      });
      return (server.address() as AddressInfo).port;
    },
  };
}

/** A plain HTTP server answering GET (and HEAD) /metrics, 404 to anything else. */
function metricsListener(registry: Registry, options: MetricsOptions): http.Server {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end('{"error":"Not found."}');
      return;
    }
    registry.metrics().then(
      (body) => {
        response.writeHead(200, { 'content-type': registry.contentType });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      () => response.writeHead(500).end(),
    );
  });
  server.requestTimeout = options.requestTimeoutMs;
  server.headersTimeout = options.headersTimeoutMs;
  return server;
}
