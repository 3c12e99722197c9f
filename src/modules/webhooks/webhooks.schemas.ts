// Request and response schemas of the /api/webhook-endpoints routes (docs/webhooks.md), with the
// route options both registrars share (tenancy messages, the error bodies, the empty-body hook).
import { Type } from 'typebox';
import { LaravelPage, PageQueryFields } from '../../platform/schemas.js';
import type { TenancyMessages } from '../../platform/types.js';
import { ENDPOINT_NOT_FOUND, ENDPOINTS_FORBIDDEN } from './webhooks.service.js';

export const LIST_TENANCY: TenancyMessages = { forbidden: ENDPOINTS_FORBIDDEN };
const ONE_TENANCY: TenancyMessages = { forbidden: ENDPOINTS_FORBIDDEN, notFound: ENDPOINT_NOT_FOUND };
/** Route config of the routes under one endpoint: its tenancy and not-found message. */
export const one = { tenancy: ONE_TENANCY, notFoundMessage: ENDPOINT_NOT_FOUND, family: 'plain' as const };
const CompanyId = Type.Optional(Type.Union([Type.Integer(), Type.String()]));
const NullableString = Type.Union([Type.Null(), Type.String()]);
export const RowId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

export const EndpointSchema = Type.Object(
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
export const DeliverySchema = Type.Object(
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
export const errors = { '4xx': ErrorSchema, '5xx': ErrorSchema };
export const EndpointAnswer = Type.Object({ message: Type.String(), endpoint: Type.Ref('WebhookEndpoint') });
export const IdParams = Type.Object({ id: RowId });
export const CompanyQuery = Type.Object({ company_id: CompanyId });
export const PageQuery = Type.Object({ company_id: CompanyId, ...PageQueryFields });
const Url = Type.String({ maxLength: 2048 });
const Events = Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 });
const Description = Type.Union([Type.Null(), Type.String({ maxLength: 255 })]);
export const tags = ['webhooks'];

export const EndpointsPage = Type.Object({ message: Type.String(), data: LaravelPage(Type.Ref('WebhookEndpoint')) });
export const DeliveriesPage = Type.Object({ message: Type.String(), data: LaravelPage(Type.Ref('WebhookDelivery')) });

export const StoreBody = Type.Object({
  company_id: CompanyId,
  url: Url,
  events: Events,
  description: Type.Optional(Description),
  include_children: Type.Optional(Type.Boolean()),
});
export const StoreAnswer = Type.Object({ message: Type.String(), endpoint: Type.Ref('WebhookEndpoint'), secret: Type.String() });

export const UpdateBody = Type.Object({
  company_id: CompanyId,
  url: Type.Optional(Url),
  events: Type.Optional(Events),
  description: Type.Optional(Description),
  include_children: Type.Optional(Type.Boolean()),
  disabled: Type.Optional(Type.Boolean()),
});

export const RotateAnswer = Type.Object({ message: Type.String(), secret: Type.String(), endpoint: Type.Ref('WebhookEndpoint') });

/** The POST actions take company_id only; a request without a body is read as {}. */
export const emptyBody = async (request: { body: unknown }) => {
  if (request.body === undefined || request.body === null) request.body = {};
};
