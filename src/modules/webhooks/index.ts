// Outbound webhooks (docs/webhooks.md): the module's one public entry. Other modules announce their
// changes with `recordEvent(tx, companyId, type, data)` inside the transaction of the change;
// createWebhooksModule(deps) gives the endpoints API, the deliveries service and the deliver job.
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { createDeliveryService } from './webhooks.deliver.jobs.js';
import { webhooksRoutes } from './webhooks.routes.js';
import { createWebhooksService } from './webhooks.service.js';

export { type DomainEvent, EVENT_TYPES, type EventType, recordEvent, recordEvents } from './webhooks.events.js';
export { pruneWebhookHistory, webhookAudienceSql } from './webhooks.events.repo.js';
export { openApiWebhooks } from './webhooks.openapi.schemas.js';
export { USER_AGENT as WEBHOOK_USER_AGENT } from './webhooks.sender.provider.js';
// Who hears of a company's happenings by e-mail (a disabled endpoint, a scheduled run, a deadline): one query.
export { adminEmails } from './webhooks.sender.repo.js';

export function createWebhooksModule(deps: AppDeps) {
  const deliveries = createDeliveryService(deps);
  const services = { endpoints: createWebhooksService(deps), deliveries };
  return {
    services,
    routes: webhooksRoutes(services.endpoints),
    jobs: [deliveries.job],
  } satisfies FeatureModule<typeof services>;
}

export type WebhooksServices = ReturnType<typeof createWebhooksModule>['services'];
