// The audit scope of a request: opened by onRequest, named by the hook that authenticates, read by
// recordAudit through auditOrigin() anywhere the handler awaits. The scope lives on the request as
// a declared decorator (no WeakMap keyed by request: docs/benchmarks.md, "Every list against the
// ceiling"), so every request object has it from its construction.
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { auditOrigin, registerAuditContext, setAuditActor } from './context.js';

describe('audit context', () => {
  const app = Fastify({ logger: false });
  registerAuditContext(app);
  const seenAtRequest: unknown[] = [];
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.headers['x-console-user']) setAuditActor(request, { type: 'console_user', id: String(request.headers['x-console-user']) });
    done();
  });
  app.get('/origin', async (request) => {
    await new Promise((resolve) => setImmediate(resolve));
    seenAtRequest.push(request.auditScope?.request === request);
    return auditOrigin();
  });
  app.post('/origin', async () => auditOrigin());
  afterAll(() => app.close());

  it('gives the handler the request it runs in, and the actor its authentication named', async () => {
    const anonymous = await app.inject({ method: 'GET', url: '/origin', headers: { 'user-agent': 'probe/1' } });
    expect(anonymous.json()).toMatchObject({ actor: { type: 'system', id: 'unattributed' }, userAgent: 'probe/1', ip: '127.0.0.1' });
    expect(anonymous.json().requestId).toEqual(expect.any(String));

    const named = await app.inject({ method: 'POST', url: '/origin', payload: { a: 1 }, headers: { 'x-console-user': '42' } });
    expect(named.json().actor).toEqual({ type: 'console_user', id: '42' });
    expect(seenAtRequest).toEqual([true]);
  });

  it('declares the scope on every request from its construction (one object shape for all requests)', async () => {
    const probe = Fastify({ logger: false });
    const before: unknown[] = [];
    // Added first, so it runs before the scope's own hook: the property is there already, still empty.
    probe.addHook('onRequest', (request, _reply, done) => {
      before.push([Object.hasOwn(request, 'auditScope'), request.auditScope]);
      done();
    });
    registerAuditContext(probe);
    probe.get('/', async (request) => request.auditScope?.request === request);
    try {
      expect((await probe.inject({ method: 'GET', url: '/' })).json()).toBe(true);
      expect(before).toEqual([[true, null]]);
    } finally {
      await probe.close();
    }
  });
});
