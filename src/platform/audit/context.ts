// Who is acting, for the audit log (docs/audit.md, "Who"): the request (or job, or CLI command) a
// change runs in, carried by AsyncLocalStorage so that recordAudit(tx, events) needs no actor
// argument and a service records its change with one call, whoever called it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export type AuditActorType = 'token' | 'console_user' | 'operator' | 'system' | 'employee';

export interface AuditActor {
  type: AuditActorType;
  id: string;
  email?: string | null;
}

interface AuditScope {
  /** Set by whoever knows better than the API token (console session, operator API, job, CLI). */
  actor?: AuditActor;
  request?: FastifyRequest;
}

const storage = new AsyncLocalStorage<AuditScope>();

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The request's audit scope, re-entered before the handler (body parsing may lose the async
     * context). A request decorator, not a WeakMap keyed by request: a WeakMap holding every live
     * request made each young-generation GC walk its entries, and the GC's share of a request's CPU
     * doubled (docs/benchmarks.md, "Every list against the ceiling").
     */
    auditScope: AuditScope | null;
  }
}

/** Where a change comes from: actor, request id, client address and user agent. */
export interface AuditOrigin {
  actor: AuditActor;
  requestId: string | null;
  ip: string | null;
  userAgent: string | null;
}

/** Changes made outside any request, job or command (the demo seed, a test's direct service call). */
const UNATTRIBUTED: AuditActor = { type: 'system', id: 'unattributed', email: null };

export function auditOrigin(): AuditOrigin {
  const scope = storage.getStore();
  const request = scope?.request;
  const caller = request?.caller;
  const actor = scope?.actor ?? (caller ? { type: 'token' as const, id: String(caller.tokenId), email: null } : undefined) ?? UNATTRIBUTED;
  const agent = request?.headers['user-agent'];
  return {
    actor,
    requestId: request ? String(request.id) : null,
    ip: request?.ip ?? null,
    userAgent: typeof agent === 'string' ? agent.slice(0, 512) : null,
  };
}

/** Runs `fn` as `actor` (a job, a CLI command): every audit event written inside names it. */
export function runAsActor<T>(actor: AuditActor, fn: () => T): T {
  return storage.run({ actor }, fn);
}

/**
 * Names the actor of a request (a console session, the operator API): called by the hook that
 * authenticated it, before the handler runs.
 */
export function setAuditActor(request: FastifyRequest, actor: AuditActor): void {
  const scope = request.auditScope ?? storage.getStore();
  if (scope) scope.actor = actor;
}

/**
 * Opens the audit scope of every request (onRequest), and enters it again just before the
 * handlers (preHandler) so that the handler and everything it awaits run inside it.
 */
export function registerAuditContext(app: FastifyInstance): void {
  // Declared with its initial value, so that every request object has the same shape from the start.
  app.decorateRequest('auditScope', null);
  app.addHook('onRequest', (request, _reply, done) => {
    const scope: AuditScope = { request };
    request.auditScope = scope;
    storage.run(scope, done);
  });
  app.addHook('preHandler', (request, _reply, done) => {
    const scope = request.auditScope ?? { request };
    if (storage.getStore() === scope) return done();
    storage.run(scope, done);
  });
}
