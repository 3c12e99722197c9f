// Builds the Fastify app: platform plugins first, then every feature module. The server, the tests
// and the CLI all use this.
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifySchema } from 'fastify';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { type AppServices, createModules, openApiWebhooks } from './modules/index.js';
import { registerAuditContext } from './platform/audit/index.js';
import { AuthCache, createAuthenticator } from './platform/auth/authenticate.js';
import { LastUseWriter } from './platform/auth/last-use.js';
import type { RouteName } from './platform/auth/tokens.js';
import { closeSilentConnections } from './platform/connection-timeouts.js';
import type { AppDeps } from './platform/deps.js';
import { registerErrorHandling, serializeError } from './platform/error-handler.js';
import type { ErrorFamily } from './platform/errors.js';
import { registerGetJsonBody } from './platform/get-body.js';
import { registerIdempotency } from './platform/idempotency.js';
import { registerInputSafety } from './platform/input-safety.js';
import { JobQueue } from './platform/jobs/queue.js';
import { createLogDestination, RequestLogController, requestId, serializeRequest } from './platform/logging.js';
import { createMailer, mailDeliveryJob } from './platform/mail/outbox.js';
import { registerMetrics } from './platform/metrics.js';
import { registerOpenApi, registerOpenApiRoutes } from './platform/openapi.js';
import { createRateLimitStore, type RateLimitStore } from './platform/ratelimit/limiter.js';
import { registerReadiness } from './platform/readiness.js';
import { registerResponseContract } from './platform/response-contract.js';
import { ownTargetCompany, resolveTargetCompany } from './platform/tenancy.js';
import './platform/types.js';
import { schemaCompilers } from './platform/schema-compilers.js';
import { registerConsole } from './web/index.js';

export interface BuildOptions {
  config: Config;
  database: Database;
  /** Log level override (tests pass 'silent'). */
  logLevel?: string;
  /** Share one limiter store between apps (tests of several instances use Redis instead). */
  limiter?: RateLimitStore;
  /** Where the JSON log lines go (default stdout); tests capture them to check what is logged. */
  logStream?: { write(line: string): void };
  /** Tests: every JSON answer is checked against its documented response schema (platform/response-contract.ts). */
  responseContract?: (mismatch: string) => void;
}

/** A named /api route as registered (OpenAPI and isolation tests check them all). */
export interface RouteEntry {
  method: string;
  url: string;
  name: RouteName;
  /** The route's error family and schema, so catalog-driven tests can build requests for it. */
  family: ErrorFamily;
  schema?: FastifySchema;
  /** The route checks its query and body itself, with its documented messages (RouteConfig.ownInputChecks). */
  ownInputChecks?: true;
}

/**
 * `services`: every feature module's services, built once (the console and the seed use them).
 * `listenMetrics`: starts the METRICS_PORT listener, if set (server.ts, after listen); its port.
 * `lastUse`: tokens' last uses waiting for their write (platform/auth/last-use.ts), written on close.
 */
export type App = FastifyInstance & {
  deps: AppDeps;
  services: AppServices;
  routeCatalog: RouteEntry[];
  lastUse: LastUseWriter;
  listenMetrics: () => Promise<number | undefined>;
};

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
    trustProxy: proxyTrust(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // A client that sends its request slowly holds a connection (and its buffers) until cut off.
    // Node checks the limits every connectionsCheckingInterval (30 s by default): every second, so
    // that they hold to the second.
    requestTimeout: config.requestTimeoutSeconds * 1000,
    http: {
      requestTimeout: config.requestTimeoutSeconds * 1000,
      headersTimeout: config.headersTimeoutSeconds * 1000,
      connectionsCheckingInterval: 1000,
    },
    requestIdHeader: false,
    genReqId: requestId,
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, useDefaults: true, allErrors: false } },
    // Fastify's own compilers, each compiled function kept for the process (platform/schema-compilers.ts).
    schemaController: { compilersFactory: schemaCompilers },
  }).withTypeProvider<TypeBoxTypeProvider>();
  closeSilentConnections(app.server, config.headersTimeoutSeconds * 1000);
  database.onConnectionError((error, inUse) =>
    app.log.warn({ err: error, inUse }, 'a database connection was lost; the pool discards it and opens a new one when needed'),
  );

  const limiter = options.limiter ?? createRateLimitStore({ windowSeconds: config.rateLimit.windowSeconds, redisUrl: config.redisUrl });
  // Each switch between Redis and the per-instance fallback is one log line (docs/operations.md, "Redis down").
  const stopLimiterLog = limiter.onModeChange((mode, reason) =>
    mode === 'fallback'
      ? app.log.warn({ reason }, "Redis unavailable: rate limits are counted in this instance's memory until it answers")
      : app.log.info({ reason }, 'Redis answers again: rate limits are shared through Redis'),
  );
  const jobs = new JobQueue(database.db, app.log, config.jobPollMs);
  const authCache = new AuthCache();
  const lastUse = new LastUseWriter(database.db, app.log);
  const deps: AppDeps = {
    config,
    database,
    db: database.db,
    jobs,
    mailer: createMailer({ perCompanyPerHour: config.mailPerCompanyPerHour }),
    authCache,
    limiter,
  };
  Object.assign(app, { deps });
  const routeCatalog: RouteEntry[] = [];
  Object.assign(app, { routeCatalog });
  app.addHook('onRoute', (route) => {
    const name = route.config?.name;
    if (!name) return;
    for (const method of [route.method].flat())
      if (method !== 'HEAD')
        routeCatalog.push({
          method,
          url: route.url,
          name,
          family: route.config?.family ?? 'plain',
          schema: route.schema,
          ownInputChecks: route.config?.ownInputChecks,
        });
  });

  // Hooks that never wait are callback-style (here and in src/platform): an async hook costs every
  // request a promise and a microtask, ~0.8 µs each (docs/benchmarks.md).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
  registerErrorHandling(app);
  if (options.responseContract) registerResponseContract(app, options.responseContract);
  registerInputSafety(app);
  await registerOpenApi(app, openApiWebhooks());
  const metrics = registerMetrics(app, {
    limiter,
    token: config.metricsToken,
    port: config.metricsPort,
    requestTimeoutMs: config.requestTimeoutSeconds * 1000,
    headersTimeoutMs: config.headersTimeoutSeconds * 1000,
  });
  registerGetJsonBody(app);
  await app.register(formbody);
  await app.register(multipart, { limits: { fileSize: 5 * 1024 * 1024, files: 20, fields: 50 } });

  registerAuditContext(app);
  app.addHook('onRequest', createAuthenticator({ db: database.db, config, limiter, cache: authCache, lastUse }));
  app.addHook('preHandler', (request, _reply, done) => {
    const tenancy = request.routeOptions.config.tenancy;
    if (!tenancy || !request.caller) return done();
    const own = ownTargetCompany(request, tenancy);
    if (own !== undefined) {
      request.targetCompanyId = own;
      return done();
    }
    resolveTargetCompany(database.db, request, tenancy).then((target) => {
      request.targetCompanyId = target;
      done();
    }, done);
  });
  registerIdempotency(app, database, config.idempotencyTestCrash);

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  registerReadiness(app, { database, limiter });

  jobs.define(mailDeliveryJob(config));
  const { modules, services } = createModules(deps);
  Object.assign(app, { services });
  for (const feature of modules) {
    for (const definition of feature.jobs) jobs.define(definition);
    await feature.routes(app);
  }
  // The console is composed here, over the modules' services: it is not a feature module.
  await registerConsole(app, services, deps);
  await registerOpenApiRoutes(app);

  app.addHook('onClose', async () => {
    await lastUse.close();
    await jobs.stop();
    stopLimiterLog();
    if (!options.limiter) await limiter.close();
    logDestination?.close();
  });
  // Same objects as assigned above (hooks read them while the app is built); this puts them in the type.
  return Object.assign(app, { deps, routeCatalog, services, lastUse, listenMetrics: metrics.listen });
}

/**
 * Fastify's trustProxy for TRUST_PROXY (config.ts). A hop count becomes "trust the nearest N
 * addresses" (Fastify itself takes a number as "trust none"); the client is then the N-th entry of
 * X-Forwarded-For from the right, whatever the client wrote to the left of it.
 */
function proxyTrust(setting: Config['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  return (_address, hop) => hop < setting;
}
