// /api/invoices (docs/reference.md, I1-I7). Schemas in invoices.schemas.ts; the two approval steps
// (I5, I6) in invoices.approval.routes.ts, registered between I4 and I7 to keep the route order.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../platform/deps.js';
import { sendJsonTextOr } from '../../platform/json-text.js';
import { tenantId } from '../../platform/request-context.js';
import { invoiceApprovalRoutes } from './invoices.approval.routes.js';
import {
  base,
  CompanyQuery,
  CreateBody,
  errors,
  InvoiceSchema,
  InvoicesPage,
  ListQuery,
  Params,
  Result,
  UpdateBody,
} from './invoices.schemas.js';
import type { createInvoicesService } from './invoices.service.js';

export async function invoicesRoutes(root: FastifyInstance, service: ReturnType<typeof createInvoicesService>): Promise<void> {
  const app = typed(root);
  app.addSchema(InvoiceSchema);
  app.get(
    '/api/invoices',
    {
      config: { ...base, name: 'invoices.index', internalMessage: 'Failed to retrieve invoices.' },
      schema: {
        tags: ['invoices'],
        summary: 'I1. List invoices of the target company',
        querystring: ListQuery,
        response: { 200: InvoicesPage, ...errors },
      },
    },
    async (request, reply) => sendJsonTextOr(reply, await service.listForApi(tenantId(request), request.query)),
  );

  app.get(
    '/api/invoices/:transaction_id',
    {
      config: { ...base, name: 'invoices.show', internalMessage: 'Failed to retrieve invoice.' },
      schema: {
        tags: ['invoices'],
        summary: 'I2. One invoice',
        params: Params,
        querystring: CompanyQuery,
        response: { 200: Result, ...errors },
      },
    },
    async (request) => service.show(tenantId(request), request.params.transaction_id),
  );

  app.post(
    '/api/invoices',
    {
      config: { ...base, name: 'invoices.store', internalMessage: 'Failed to create invoice.' },
      schema: {
        tags: ['invoices'],
        summary: 'I3. Create an invoice (claim) for an employee',
        description: 'Required: user_email, description, service_date, provider_name, total_amount, amount_requested, category_name.',
        body: CreateBody,
        response: { 201: Result, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(tenantId(request), request.body)),
  );

  app.put(
    '/api/invoices/:transaction_id',
    {
      config: { ...base, name: 'invoices.update', internalMessage: 'Failed to update invoice.' },
      schema: {
        tags: ['invoices'],
        summary: 'I4. Update details (while pending manager approval) or record one payment (amount_paid, once approved)',
        params: Params,
        body: UpdateBody,
        response: { 200: Result, ...errors },
      },
    },
    async (request) => service.update(tenantId(request), request.params.transaction_id, request.body),
  );

  invoiceApprovalRoutes(app, service);

  app.delete(
    '/api/invoices/:transaction_id/destroy',
    {
      config: { ...base, name: 'invoices.destroy', internalMessage: 'Failed to delete invoice.' },
      schema: {
        tags: ['invoices'],
        summary: 'I7. Delete an invoice that is not paid or partially paid',
        params: Params,
        querystring: CompanyQuery,
        response: { 200: Type.Object({ message: Type.String() }), ...errors },
      },
    },
    async (request) => service.destroy(tenantId(request), request.params.transaction_id),
  );
}
