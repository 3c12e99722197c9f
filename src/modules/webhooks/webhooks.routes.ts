// /api/webhook-endpoints (docs/webhooks.md): the endpoints, their deliveries log, a manual retry and
// a test event. Errors {error}; validation 422 {error: {field: [..]}}.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../platform/deps.js';
import { forbidden } from '../../platform/errors.js';
import { tenantId } from '../../platform/request-context.js';
import { LaravelPage, PageQueryFields } from '../../platform/schemas.js';
import type { TenancyMessages } from '../../platform/types.js';
import type { EndpointActor } from './webhooks.scopes.rules.js';
import { ENDPOINT_NOT_FOUND, ENDPOINTS_FORBIDDEN, type WebhooksService } from './webhooks.service.js';

const LIST_TENANCY: TenancyMessages = { forbidden: ENDPOINTS_FORBIDDEN };
const ONE_TENANCY: TenancyMessages = { forbidden: ENDPOINTS_FORBIDDEN, notFound: ENDPOINT_NOT_FOUND };
const CompanyId = Type.Optional(Type.Union([Type.Integer(), Type.String()]));
const NullableString = Type.Union([Type.Null(), Type.String()]);
const RowId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

const EndpointSchema = Type.Object(
  {
    id: Type.Integer(),
    company_id: Type.Integer(),
    url: Type.String(),
    description: NullableString,
    events: Type.Array(Type.String()),
    include_children: Type.Boolean(),
    disabled: Type.Boolean(),
    disabled_reason: NullableString,
    previous_secret_expires_at: NullableString,
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'WebhookEndpoint' },
);
const DeliverySchema = Type.Object(
  {
    id: Type.Integer(),
    event_id: Type.String(),
    event_type: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
    attempts: Type.Integer(),
    last_status_code: Type.Union([Type.Null(), Type.Integer()]),
    last_error: NullableString,
    last_attempt_at: NullableString,
    next_attempt_at: NullableString,
    created_at: Type.String(),
  },
  { $id: 'WebhookDelivery' },
);
const ErrorSchema = Type.Object({
  error: Type.Unknown({ description: 'a message, or {field: [messages]} on 422' }),
  events: Type.Optional(Type.Array(Type.String(), { description: 'on 403: the event types this token may not read' })),
});
const errors = { '4xx': ErrorSchema, '5xx': ErrorSchema };
const EndpointAnswer = Type.Object({ message: Type.String(), endpoint: Type.Ref('WebhookEndpoint') });
const IdParams = Type.Object({ id: RowId });
const CompanyQuery = Type.Object({ company_id: CompanyId });
const Url = Type.String({ maxLength: 2048 });
const Events = Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 });
const Description = Type.Union([Type.Null(), Type.String({ maxLength: 255 })]);
const tags = ['webhooks'];
const emptyBody = async (request: { body: unknown }) => {
  if (request.body === undefined || request.body === null) request.body = {};
};

/** The calling token as the endpoint's actor (its scopes decide which events it may receive). */
function tokenActor(request: FastifyRequest): EndpointActor {
  const caller = request.caller;
  if (!caller) throw forbidden(ENDPOINTS_FORBIDDEN);
  return { via: 'token', companyId: caller.companyId, tokenId: caller.tokenId, scopes: caller.scopes };
}

export function webhooksRoutes(service: WebhooksService) {
  return async (root: FastifyInstance): Promise<void> => {
    const app = typed(root);
    app.addSchema(EndpointSchema);
    app.addSchema(DeliverySchema);
    const one = { tenancy: ONE_TENANCY, notFoundMessage: ENDPOINT_NOT_FOUND, family: 'plain' as const };

    app.get(
      '/api/webhook-endpoints',
      {
        config: { name: 'webhooks.index', family: 'plain', tenancy: LIST_TENANCY },
        schema: {
          tags,
          summary: "List the company's webhook endpoints, newest first",
          querystring: Type.Object({ company_id: CompanyId, ...PageQueryFields }),
          response: { 200: Type.Object({ message: Type.String(), data: LaravelPage(Type.Ref('WebhookEndpoint')) }), ...errors },
        },
      },
      async (request) => service.list(tenantId(request), request.query, request.query),
    );

    app.post(
      '/api/webhook-endpoints',
      {
        config: { name: 'webhooks.store', family: 'plain', tenancy: LIST_TENANCY },
        schema: {
          tags,
          summary: 'Add an endpoint; the answer carries its signing secret, shown only this once',
          body: Type.Object({
            company_id: CompanyId,
            url: Url,
            events: Events,
            description: Type.Optional(Description),
            include_children: Type.Optional(Type.Boolean()),
          }),
          response: {
            201: Type.Object({ message: Type.String(), endpoint: Type.Ref('WebhookEndpoint'), secret: Type.String() }),
            ...errors,
          },
        },
      },
      async (request, reply) => reply.status(201).send(await service.create(tenantId(request), request.body, tokenActor(request))),
    );

    app.get(
      '/api/webhook-endpoints/:id',
      {
        config: { name: 'webhooks.show', ...one },
        schema: {
          tags,
          summary: 'One endpoint (never its secret)',
          params: IdParams,
          querystring: CompanyQuery,
          response: { 200: EndpointAnswer, ...errors },
        },
      },
      async (request) => service.show(tenantId(request), request.params.id),
    );

    app.patch(
      '/api/webhook-endpoints/:id',
      {
        config: { name: 'webhooks.update', ...one },
        schema: {
          tags,
          summary: 'Change the url, events, description, include_children or disabled',
          params: IdParams,
          body: Type.Object({
            company_id: CompanyId,
            url: Type.Optional(Url),
            events: Type.Optional(Events),
            description: Type.Optional(Description),
            include_children: Type.Optional(Type.Boolean()),
            disabled: Type.Optional(Type.Boolean()),
          }),
          response: { 200: EndpointAnswer, ...errors },
        },
      },
      async (request) => service.update(tenantId(request), request.params.id, request.body, tokenActor(request)),
    );

    app.delete(
      '/api/webhook-endpoints/:id',
      {
        config: { name: 'webhooks.destroy', ...one },
        schema: {
          tags,
          summary: 'Delete an endpoint and its deliveries log',
          params: IdParams,
          querystring: CompanyQuery,
          response: { 200: Type.Object({ message: Type.String() }), ...errors },
        },
      },
      async (request) => service.destroy(tenantId(request), request.params.id),
    );

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
          response: {
            200: Type.Object({ message: Type.String(), secret: Type.String(), endpoint: Type.Ref('WebhookEndpoint') }),
            ...errors,
          },
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
          querystring: Type.Object({ company_id: CompanyId, ...PageQueryFields }),
          response: { 200: Type.Object({ message: Type.String(), data: LaravelPage(Type.Ref('WebhookDelivery')) }), ...errors },
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
      async (request, reply) =>
        reply.status(202).send(await service.retry(tenantId(request), request.params.id, request.params.delivery_id)),
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
  };
}
