// What a feature module receives: explicit, narrowed dependencies, no container.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Database, Db } from '../db/client.js';
import type { AuthCache } from './auth/authenticate.js';
import type { AnyJobDefinition, JobQueue } from './jobs/queue.js';
import type { Mailer } from './mail/outbox.js';
import type { RateLimitStore } from './ratelimit/limiter.js';

export interface AppDeps {
  config: Config;
  database: Database;
  db: Db;
  jobs: JobQueue;
  mailer: Mailer;
  /** Call after changing tokens, a company's access or plan, so the change applies at once. */
  authCache: AuthCache;
  /** The rate-limit counters (memory, or Redis with REDIS_URL), for limits outside /api auth. */
  limiter: RateLimitStore;
}

/**
 * What `src/modules/<feature>/index.ts` returns from `create<Feature>Module(deps)`: the feature's
 * services, built once (app.ts exposes them as `app.services` to the console and to modules built
 * later), its routes and its jobs. Routes and jobs close over those same services.
 */
export interface FeatureModule<Services extends object = object> {
  services: Services;
  /** Registers this feature's routes (under the app root; paths are absolute). */
  routes: (app: FastifyInstance) => Promise<void> | void;
  /** This feature's background jobs, collected into the one job catalog. */
  jobs: AnyJobDefinition[];
}

/** Routes get TypeBox-typed params, query and body through this. */
export function typed(app: FastifyInstance) {
  return app.withTypeProvider<TypeBoxTypeProvider>();
}
