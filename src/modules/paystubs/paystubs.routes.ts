// P1/P2 paystubs (S4/S5 contributions: contributions.routes.ts; shared schemas: paystubs.schemas.ts).
// Paystub errors are {error: message}; schema failures of the P1 query are 400 (family `paystubs`),
// of the P2 envelope `400 {error: "Bad Request"}`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../platform/deps.js';
import { badRequest } from '../../platform/errors.js';
import { isRecord } from '../../platform/guards.js';
import { sendJsonTextOr } from '../../platform/json-text.js';
import { tenantId } from '../../platform/request-context.js';
import { CompanyIdInput, PageQueryFields } from '../../platform/schemas.js';
import type { TenancyMessages } from '../../platform/types.js';
import { ContributionSchema, errors, PaystubItemSchema, PaystubSchema, PaystubsPage, RecordSchema } from './paystubs.schemas.js';
import { type createPaystubsService, PAYSTUBS_FORBIDDEN, PAYSTUBS_NOT_FOUND } from './paystubs.service.js';

const PAYSTUBS_TENANCY: TenancyMessages = { forbidden: PAYSTUBS_FORBIDDEN, notFound: PAYSTUBS_NOT_FOUND };
export const MAX_ITEMS = 1000;

/** Runs before schema validation, which would coerce a lone object into an array. */
async function checkEnvelope(request: FastifyRequest) {
  const items = isRecord(request.body) ? request.body.paystubs : undefined;
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_ITEMS) throw badRequest('Bad Request');
}

export async function paystubsRoutes(root: FastifyInstance, service: ReturnType<typeof createPaystubsService>): Promise<void> {
  const app = typed(root);
  app.addSchema(RecordSchema);
  app.addSchema(PaystubItemSchema);
  app.addSchema(PaystubSchema);
  app.addSchema(ContributionSchema);

  app.get(
    '/api/paystubs',
    {
      config: { name: 'paystubs.index', family: 'paystubs', tenancy: PAYSTUBS_TENANCY },
      schema: {
        tags: ['paystubs'],
        summary: 'P1. List paystubs, newest first (filters combine)',
        querystring: Type.Object({
          company_id: CompanyIdInput,
          user_id: Type.Optional(Type.Integer({ minimum: 1 })),
          transaction_id: Type.Optional(Type.String({ maxLength: 64 })),
          status: Type.Optional(Type.String({ maxLength: 32 })),
          ...PageQueryFields,
        }),
        response: {
          200: PaystubsPage,
          ...errors,
        },
      },
    },
    async (request, reply) => sendJsonTextOr(reply, await service.listForApi(tenantId(request), request.query, request.query)),
  );

  app.post(
    '/api/paystubs',
    {
      config: { name: 'paystubs.store', family: 'paystubs', sensitive: true, tenancy: PAYSTUBS_TENANCY, badRequestMessage: 'Bad Request' },
      preValidation: checkEnvelope,
      schema: {
        tags: ['paystubs'],
        summary: 'P2. Create a payroll run (1 to 1,000 paystubs; each item succeeds or fails on its own)',
        body: Type.Object({
          company_id: CompanyIdInput,
          paystubs: Type.Array(Type.Unknown(), { minItems: 1, maxItems: MAX_ITEMS }),
        }),
        response: {
          201: Type.Object({
            message: Type.String(),
            transaction_id: Type.String(),
            created_paystubs: Type.Array(
              Type.Object({ paystub: Type.Ref('Paystub'), custom_contributions: Type.Array(Type.Ref('CustomContributionRecord')) }),
            ),
            failed_paystubs: Type.Array(Type.Object({ id: Type.Unknown(), errors: Type.Record(Type.String(), Type.Array(Type.String())) })),
          }),
          ...errors,
        },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createRun(tenantId(request), request.body.paystubs)),
  );
}
