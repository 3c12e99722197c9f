// Webhook endpoints: B's endpoint and delivery ids in the path (from A's own scope, A's child's and
// company_id=B), company_id=B and B's child on list and create; the plain list shows none of B's.
import { expect } from 'vitest';
import type { Json, MatrixContext } from '../probes.js';

export function webhooksProbes(context: MatrixContext): void {
  const { v, A, add, scopes, userScopes } = context;
  const body = { url: 'https://93.184.215.14/intruder', events: ['*'] };
  for (const [label, id] of scopes) {
    add({ route: 'webhooks.index', what: label, method: 'GET', url: `/api/webhook-endpoints?company_id=${id}` });
    add({ route: 'webhooks.store', what: label, method: 'POST', url: '/api/webhook-endpoints', payload: { ...body, company_id: id } });
  }
  add({
    route: 'webhooks.index',
    what: "plain list lists none of B's endpoints",
    method: 'GET',
    url: '/api/webhook-endpoints?per_page=100',
    allow: [200],
    check: (answer: Json) => expect(answer.data.data.every((endpoint: { company_id: number }) => endpoint.company_id === A)).toBe(true),
  });
  for (const [label, q] of userScopes) {
    const base = `/api/webhook-endpoints/${v.webhookId}`;
    const scoped = q === '' ? {} : { company_id: Number(q.split('=')[1]) };
    add({ route: 'webhooks.show', what: `B's endpoint, ${label}`, method: 'GET', url: `${base}${q}` });
    add({ route: 'webhooks.update', what: `B's endpoint, ${label}`, method: 'PATCH', url: `${base}${q}`, payload: { disabled: false } });
    add({ route: 'webhooks.destroy', what: `B's endpoint, ${label}`, method: 'DELETE', url: `${base}${q}` });
    add({
      route: 'webhooks.rotate-secret',
      what: `B's endpoint, ${label}`,
      method: 'POST',
      url: `${base}/rotate-secret${q}`,
      payload: scoped,
    });
    add({ route: 'webhooks.deliveries', what: `B's endpoint, ${label}`, method: 'GET', url: `${base}/deliveries${q}` });
    add({
      route: 'webhooks.retry',
      what: `B's delivery, ${label}`,
      method: 'POST',
      url: `${base}/deliveries/${v.deliveryId}/retry${q}`,
      payload: scoped,
    });
    add({ route: 'webhooks.test', what: `B's endpoint, ${label}`, method: 'POST', url: `${base}/test${q}`, payload: scoped });
  }
}
