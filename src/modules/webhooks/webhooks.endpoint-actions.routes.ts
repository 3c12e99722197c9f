// What is done to one endpoint beyond its fields (docs/webhooks.md): rotate its secret, read its
// deliveries log, retry a delivery, send a test event. Registered by webhooksRoutes
// (webhooks.routes.ts) after the endpoint routes.
import { Type } from 'typebox';
import type { typed } from '../../platform/deps.js';
import { tenantId } from '../../platform/request-context.js';
import {
  CompanyQuery,
  DeliveriesPage,
  emptyBody,
  errors,
  IdParams,
  one,
  PageQuery,
  RotateAnswer,
  RowId,
  tags,
} from './webhooks.schemas.js';
import type { WebhooksService } from './webhooks.service.js';

export function webhookEndpointActionsRoutes(app: ReturnType<typeof typed>, service: WebhooksService): void {
  app.post(
    '/api/webhook-endpoints/:id/rotate-secret',
    {
      config: { name: 'webhooks.rotate-secret', ...one },
      preValidation: emptyBody,
      schema: {
        tags,
        summary: 'A new secret (shown once); for 24 h deliveries are signed with the old and the new one',
        params: IdParams,
        body: CompanyQuery,
        response: { 200: RotateAnswer, ...errors },
      },
    },
    async (request) => service.rotateSecret(tenantId(request), request.params.id),
  );

  app.get(
    '/api/webhook-endpoints/:id/deliveries',
    {
      config: { name: 'webhooks.deliveries', ...one },
      schema: {
        tags,
        summary: "The endpoint's deliveries, newest first",
        params: IdParams,
        querystring: PageQuery,
        response: { 200: DeliveriesPage, ...errors },
      },
    },
    async (request) => service.deliveries(tenantId(request), request.params.id, request.query, request.query),
  );

  app.post(
    '/api/webhook-endpoints/:id/deliveries/:delivery_id/retry',
    {
      config: { name: 'webhooks.retry', ...one },
      preValidation: emptyBody,
      schema: {
        tags,
        summary: 'Send a delivery again now (same event id), with a fresh retry schedule',
        params: Type.Object({ id: RowId, delivery_id: RowId }),
        body: CompanyQuery,
        response: { 202: Type.Object({ message: Type.String(), delivery: Type.Ref('WebhookDelivery') }), ...errors },
      },
    },
    async (request, reply) => reply.status(202).send(await service.retry(tenantId(request), request.params.id, request.params.delivery_id)),
  );

  app.post(
    '/api/webhook-endpoints/:id/test',
    {
      config: { name: 'webhooks.test', ...one },
      preValidation: emptyBody,
      schema: {
        tags,
        summary: 'Send a webhook.test event to this endpoint only',
        params: IdParams,
        body: CompanyQuery,
        response: { 202: Type.Object({ message: Type.String(), event_id: Type.String() }), ...errors },
      },
    },
    async (request, reply) => reply.status(202).send(await service.test(tenantId(request), request.params.id)),
  );
}
