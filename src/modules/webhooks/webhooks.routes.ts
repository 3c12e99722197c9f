// /api/webhook-endpoints (docs/webhooks.md): the endpoints, their deliveries log, a manual retry and
// a test event. Errors {error}; validation 422 {error: {field: [..]}}. Schemas in webhooks.schemas.ts;
// the routes in webhooks.endpoints.routes.ts and webhooks.endpoint-actions.routes.ts, in this order.
import type { FastifyInstance } from 'fastify';
import { typed } from '../../platform/deps.js';
import { webhookEndpointActionsRoutes } from './webhooks.endpoint-actions.routes.js';
import { webhookEndpointsRoutes } from './webhooks.endpoints.routes.js';
import { DeliverySchema, EndpointSchema } from './webhooks.schemas.js';
import type { WebhooksService } from './webhooks.service.js';

export function webhooksRoutes(service: WebhooksService) {
  return async (root: FastifyInstance): Promise<void> => {
    const app = typed(root);
    app.addSchema(EndpointSchema);
    app.addSchema(DeliverySchema);
    webhookEndpointsRoutes(app, service);
    webhookEndpointActionsRoutes(app, service);
  };
}
