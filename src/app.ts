// Builds the Fastify app: platform plugins first, then every feature module. The server, the tests
// and the CLI all use this.
import crypto from 'node:crypto';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { type Database, sql } from './db/client.js';
import { modules } from './modules/index.js';
import { AuthCache, createAuthenticator } from './platform/auth/authenticate.js';
import type { AppDeps } from './platform/deps.js';
import { registerErrorHandling, serializeError } from './platform/error-handler.js';
import { registerGetJsonBody } from './platform/get-body.js';
import { registerIdempotency } from './platform/idempotency.js';
import { JobQueue } from './platform/jobs/queue.js';
import { createLogDestination, RequestLogController, serializeRequest } from './platform/logging.js';
import { createMailer, mailDeliveryJob } from './platform/mail/outbox.js';
import { registerMetrics } from './platform/metrics.js';
import { registerOpenApi, registerOpenApiRoutes } from './platform/openapi.js';
import { createRateLimitStore, type RateLimitStore } from './platform/ratelimit/limiter.js';
import { resolveTargetCompany } from './platform/tenancy.js';
import './platform/types.js';

export interface BuildOptions {
  config: Config;
  database: Database;
  /** Log level override (tests pass 'silent'). */
  logLevel?: string;
  /** Share one limiter store between apps (tests of several instances use Redis instead). */
  limiter?: RateLimitStore;
  /** Where the JSON log lines go (default stdout); tests capture them to check what is logged. */
  logStream?: { write(line: string): void };
}

/** A named /api route as registered (OpenAPI and isolation tests check them all). */
export interface RouteEntry {
  method: string;
  url: string;
  name: string;
}

export type App = FastifyInstance & { deps: AppDeps; routeCatalog: RouteEntry[] };

export async function buildApp(options: BuildOptions): Promise<App> {
  const { config, database } = options;
  const logLevel = options.logLevel ?? config.logLevel;
  const logDestination = options.logStream || logLevel === 'silent' ? undefined : createLogDestination(config.logBufferBytes);
  const app = Fastify({
    logger: {
      level: logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'body.password', 'body.password_confirmation'],
      serializers: { err: serializeError, req: serializeRequest },
      stream: options.logStream ?? logDestination?.stream,
    },
    logController: new RequestLogController(),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    requestIdHeader: 'x-request-id',
    genReqId: () => crypto.randomUUID(),
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, useDefaults: true, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  database.onIdleConnectionError((error) =>
    app.log.warn({ err: error }, 'an idle database connection was lost; the pool opens a new one when needed'),
  );

  const limiter = options.limiter ?? createRateLimitStore({ windowSeconds: config.rateLimit.windowSeconds, redisUrl: config.redisUrl });
  const jobs = new JobQueue(database.db, app.log, config.jobPollMs);
  const authCache = new AuthCache();
  const deps: AppDeps = { config, database, db: database.db, jobs, mailer: createMailer(), authCache, limiter };
  (app as unknown as App).deps = deps;
  const routeCatalog: RouteEntry[] = [];
  (app as unknown as App).routeCatalog = routeCatalog;
  app.addHook('onRoute', (route) => {
    const name = route.config?.name;
    if (!name) return;
    for (const method of [route.method].flat()) if (method !== 'HEAD') routeCatalog.push({ method, url: route.url, name });
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  registerErrorHandling(app);
  await registerOpenApi(app);
  registerMetrics(app);
  registerGetJsonBody(app);
  await app.register(formbody);
  await app.register(multipart, { limits: { fileSize: 5 * 1024 * 1024, files: 20, fields: 50 } });

  app.addHook('onRequest', createAuthenticator({ db: database.db, config, limiter, cache: authCache }));
  app.addHook('preHandler', async (request) => {
    const tenancy = request.routeOptions.config.tenancy;
    if (tenancy && request.caller) request.targetCompanyId = await resolveTargetCompany(database.db, request, tenancy);
  });
  registerIdempotency(app, database.db);

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await database.db.execute(sql`SELECT 1`);
      return { status: 'ready' };
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });

  jobs.define(mailDeliveryJob(config));
  for (const feature of modules) {
    for (const definition of feature.jobs?.(deps) ?? []) jobs.define(definition);
    if (feature.routes) await feature.routes(app, deps);
  }
  await registerOpenApiRoutes(app);

  app.addHook('onClose', async () => {
    await jobs.stop();
    if (!options.limiter) await limiter.close();
    logDestination?.close();
  });
  return app as unknown as App;
}
