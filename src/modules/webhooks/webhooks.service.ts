// Webhook endpoints (docs/webhooks.md): create with a secret shown once, list, show, change,
// delete, rotate the secret (24 h of double signatures), the deliveries log, a manual retry and a
// test event. Every method acts for one company (the tenant the route resolved).

import type { Config } from '../../config.js';
import type { Db, Executor } from '../../db/client.js';
import { diffFields, type FieldChange, recordAudit } from '../../platform/audit/index.js';
import { conflict, invalid, notFound } from '../../platform/errors.js';
import { laravelPage, pageOffset } from '../../platform/paginator.js';
import { checkEndpointUrl } from './webhooks.address.rules.js';
import { EVENT_TYPES, eventRow } from './webhooks.events.js';
import { insertEvents } from './webhooks.events.repo.js';
import { type EndpointChanges, webhooksRepo } from './webhooks.repo.js';
import { type EndpointActor, requireReadable } from './webhooks.scopes.rules.js';
import { encryptSecret, newSecret, secretKey } from './webhooks.secrets.rules.js';
import { serializeDelivery, serializeEndpoint } from './webhooks.serializer.js';

export const ENDPOINT_NOT_FOUND = 'Webhook endpoint not found.';
export const DELIVERY_NOT_FOUND = 'Webhook delivery not found.';
export const ENDPOINTS_FORBIDDEN = "You are not allowed to manage this company's webhook endpoints.";
export const ROTATION_OVERLAP_SECONDS = 24 * 3600;

const MESSAGES = {
  created: 'Webhook endpoint created successfully.',
  listed: 'Webhook endpoints retrieved successfully.',
  shown: 'Webhook endpoint retrieved successfully.',
  updated: 'Webhook endpoint updated successfully.',
  deleted: 'Webhook endpoint deleted successfully.',
  rotated: 'Webhook secret rotated. The previous secret keeps signing deliveries for 24 hours.',
  deliveries: 'Webhook deliveries retrieved successfully.',
  retried: 'Webhook delivery queued for another attempt.',
  tested: 'Test event queued.',
  disabled: 'The webhook endpoint is disabled.',
} as const;

const KNOWN_EVENTS = new Set<string>(['*', ...EVENT_TYPES]);

export interface EndpointInput {
  url?: string;
  events?: string[];
  description?: string | null;
  include_children?: boolean;
  disabled?: boolean;
}

interface PageQuery {
  page?: number;
  per_page?: number;
}

/** The endpoint fields an audit event shows (docs/audit.md); the secret only as "changed". */
const AUDITED = ['url', 'events', 'description', 'include_children', 'disabled'] as const;
const audit = (tx: Executor, companyId: number, action: string, id: number, changes?: Record<string, FieldChange>) =>
  recordAudit(tx, [{ companyId, action, target: { type: action.split('.')[0], id }, changes }]);

export function createWebhooksService(deps: { db: Db; config: Config }) {
  const { db, config } = deps;
  const key = secretKey(config.webhookSecretKey);
  const rules = { allowHttp: config.webhookAllowHttp, allowPrivateNetworks: config.webhookAllowPrivateNetworks };

  async function validate(input: EndpointInput, creating: boolean) {
    const fields: Record<string, string[]> = {};
    if (input.url !== undefined) {
      const problem = await checkEndpointUrl(input.url, rules);
      if (problem) fields.url = [problem];
    } else if (creating) fields.url = ['The url field is required.'];
    if (input.events !== undefined) {
      if (input.events.length === 0) fields.events = ['The events field must have at least 1 item.'];
      input.events.forEach((event, index) => {
        if (!KNOWN_EVENTS.has(event)) fields[`events.${index}`] = [`The selected events.${index} is invalid.`];
      });
    } else if (creating) fields.events = ['The events field is required.'];
    if (Object.keys(fields).length > 0) throw invalid(fields);
  }

  /** ["*"] stays alone; a list is de-duplicated. */
  const normalEvents = (events: string[]) => (events.includes('*') ? ['*'] : [...new Set(events)]);

  async function found(companyId: number, id: number) {
    const row = await webhooksRepo.find(db, companyId, id);
    if (!row) throw notFound(ENDPOINT_NOT_FOUND);
    return row;
  }

  return {
    /** `actor`: the calling token (its scopes must read every subscribed event) or the console. */
    async create(companyId: number, input: EndpointInput, actor: EndpointActor) {
      await validate(input, true);
      const events = normalEvents(input.events as string[]);
      requireReadable(actor, events);
      const secret = newSecret();
      const row = await db.transaction(async (tx) => {
        const inserted = await webhooksRepo.insert(tx, companyId, {
          url: input.url as string,
          description: input.description ?? null,
          events,
          includeChildren: input.include_children ?? false,
          secretEncrypted: encryptSecret(key, secret),
          createdVia: actor.via,
          createdByCompanyId: actor.via === 'token' ? actor.companyId : null,
          createdByTokenId: actor.via === 'token' ? actor.tokenId : null,
        });
        await audit(tx, companyId, 'webhook_endpoint.created', inserted.id, diffFields(null, serializeEndpoint(inserted), AUDITED));
        return inserted;
      });
      return { message: MESSAGES.created, endpoint: serializeEndpoint(row), secret };
    },

    async list(companyId: number, query: PageQuery, rawQuery: Record<string, unknown>) {
      const page = query.page ?? 1;
      const perPage = query.per_page ?? 10;
      const [total, rows] = await Promise.all([
        webhooksRepo.count(db, companyId),
        webhooksRepo.page(db, companyId, perPage, pageOffset(page, perPage)),
      ]);
      const request = { publicUrl: config.publicUrl, path: '/api/webhook-endpoints', rawQuery, page, perPage };
      return { message: MESSAGES.listed, data: laravelPage(request, total, rows.map(serializeEndpoint)) };
    },

    async show(companyId: number, id: number) {
      return { message: MESSAGES.shown, endpoint: serializeEndpoint(await found(companyId, id)) };
    },

    /** Any change (a new url too) needs the actor to read every event the endpoint will receive. */
    async update(companyId: number, id: number, input: EndpointInput, actor: EndpointActor) {
      const current = await found(companyId, id);
      await validate(input, false);
      requireReadable(actor, input.events !== undefined ? normalEvents(input.events) : current.events);
      const changes: EndpointChanges = {};
      if (input.url !== undefined) changes.url = input.url;
      if (input.events !== undefined) changes.events = normalEvents(input.events);
      if (input.description !== undefined) changes.description = input.description;
      if (input.include_children !== undefined) changes.includeChildren = input.include_children;
      if (input.disabled !== undefined) changes.disabled = input.disabled;
      const row = await db.transaction(async (tx) => {
        const updated = await webhooksRepo.update(tx, companyId, id, changes);
        if (!updated) throw notFound(ENDPOINT_NOT_FOUND);
        const diff = diffFields(serializeEndpoint(current), serializeEndpoint(updated), AUDITED);
        await audit(tx, companyId, 'webhook_endpoint.updated', id, diff);
        return updated;
      });
      return { message: MESSAGES.updated, endpoint: serializeEndpoint(row) };
    },

    async destroy(companyId: number, id: number) {
      await db.transaction(async (tx) => {
        if (!(await webhooksRepo.remove(tx, companyId, id))) throw notFound(ENDPOINT_NOT_FOUND);
        await audit(tx, companyId, 'webhook_endpoint.deleted', id);
      });
      return { message: MESSAGES.deleted };
    },

    async rotateSecret(companyId: number, id: number) {
      const secret = newSecret();
      const row = await db.transaction(async (tx) => {
        const rotated = await webhooksRepo.rotate(tx, companyId, id, encryptSecret(key, secret), ROTATION_OVERLAP_SECONDS);
        if (!rotated) throw notFound(ENDPOINT_NOT_FOUND);
        await audit(tx, companyId, 'webhook_endpoint.secret_rotated', id, { secret: [null, null] });
        return rotated;
      });
      return { message: MESSAGES.rotated, secret, endpoint: serializeEndpoint(row) };
    },

    async deliveries(companyId: number, id: number, query: PageQuery, rawQuery: Record<string, unknown>) {
      await found(companyId, id);
      const page = query.page ?? 1;
      const perPage = query.per_page ?? 10;
      const [total, rows] = await Promise.all([
        webhooksRepo.countDeliveries(db, id),
        webhooksRepo.deliveries(db, id, perPage, pageOffset(page, perPage)),
      ]);
      const request = { publicUrl: config.publicUrl, path: `/api/webhook-endpoints/${id}/deliveries`, rawQuery, page, perPage };
      return { message: MESSAGES.deliveries, data: laravelPage(request, total, rows.map(serializeDelivery)) };
    },

    async retry(companyId: number, id: number, deliveryId: number) {
      await found(companyId, id);
      const row = await db.transaction(async (tx) => {
        const requeued = await webhooksRepo.requeue(tx, id, deliveryId);
        if (!requeued) throw notFound(DELIVERY_NOT_FOUND);
        await audit(tx, companyId, 'webhook_delivery.retried', deliveryId);
        return requeued;
      });
      return { message: MESSAGES.retried, delivery: serializeDelivery(row) };
    },

    /** A `webhook.test` event for this endpoint only. */
    async test(companyId: number, id: number) {
      const endpoint = await found(companyId, id);
      if (endpoint.disabled) throw conflict(MESSAGES.disabled);
      const event = eventRow(
        { companyId, type: 'webhook.test', data: { endpoint_id: id, message: 'This is a test event from Payroll.' } },
        id,
      );
      await db.transaction(async (tx) => {
        await insertEvents(tx, [event]);
        await audit(tx, companyId, 'webhook_endpoint.tested', id);
      });
      return { message: MESSAGES.tested, event_id: event.id };
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
