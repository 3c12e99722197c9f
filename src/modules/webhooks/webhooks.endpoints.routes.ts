// The webhook endpoints themselves (docs/webhooks.md): list, add, show, change, delete. Registered by webhooksRoutes (webhooks.routes.ts), which adds the shared schemas first.
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { typed } from '../../platform/deps.js';
import { forbidden } from '../../platform/errors.js';
import { tenantId } from '../../platform/request-context.js';
import {
  CompanyQuery,
  EndpointAnswer,
  EndpointsPage,
  errors,
  IdParams,
  LIST_TENANCY,
  one,
  PageQuery,
  StoreAnswer,
  StoreBody,
  tags,
  UpdateBody,
} from './webhooks.schemas.js';
import type { EndpointActor } from './webhooks.scopes.rules.js';
import { ENDPOINTS_FORBIDDEN, type WebhooksService } from './webhooks.service.js';

/** The calling token as the endpoint's actor (its scopes decide which events it may receive). */
function tokenActor(request: FastifyRequest): EndpointActor {
  const caller = request.caller;
  if (!caller) throw forbidden(ENDPOINTS_FORBIDDEN);
  return { via: 'token', companyId: caller.companyId, tokenId: caller.tokenId, scopes: caller.scopes };
}

export function webhookEndpointsRoutes(app: ReturnType<typeof typed>, service: WebhooksService): void {
  app.get(
    '/api/webhook-endpoints',
    {
      config: { name: 'webhooks.index', family: 'plain', tenancy: LIST_TENANCY },
      schema: {
        tags,
        summary: "List the company's webhook endpoints, newest first",
        querystring: PageQuery,
        response: { 200: EndpointsPage, ...errors },
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
        body: StoreBody,
        response: { 201: StoreAnswer, ...errors },
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
        body: UpdateBody,
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
}
