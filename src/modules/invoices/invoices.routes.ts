import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../platform/deps.js';
import { tenantId } from '../../platform/request-context.js';
import { CompanyIdInput as CompanyId, errorResponses, FieldsError, MoneyInput, NullableString } from '../../platform/schemas.js';
import type { TenancyMessages } from '../../platform/types.js';
import { type createInvoicesService, INVOICE_NOT_FOUND } from './invoices.service.js';

/** Invoices name no 403 text in the published interface; this one says what was refused. */
export const INVOICES_TENANCY: TenancyMessages = { forbidden: "You do not have permission to access this company's invoices." };

export const InvoiceSchema = Type.Object(
  {
    id: Type.Integer(),
    company_id: Type.Integer(),
    user_id: Type.Integer(),
    transaction_id: Type.String(),
    description: Type.String(),
    service_date: Type.String(),
    provider_name: Type.String(),
    total_amount: Type.String(),
    amount_requested: Type.String(),
    amount_paid: Type.String(),
    balance: Type.String(),
    status: Type.String({ description: 'unpaid, pending (approved, awaiting payment), partially_paid, paid' }),
    approval_status: Type.String({ description: 'pending, manager_approved, rejected, approved, denied' }),
    category_name: Type.String(),
    subcategory_name: NullableString,
    payment_method: Type.String({ description: 'self or provider' }),
    user_email: Type.String(),
    relationship_manager_email: NullableString,
    finance_approver_email: NullableString,
    approved_by_manager_email: NullableString,
    comment: NullableString,
    manager_comment: NullableString,
    finance_comment: NullableString,
    manager_decided_at: NullableString,
    finance_decided_at: NullableString,
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'Invoice' },
);

const errors = errorResponses(FieldsError);
const Params = Type.Object({ transaction_id: Type.String() });
const Money = (description: string) => Type.Optional(MoneyInput(description));
const Str = (description?: string) => Type.Optional(Type.String({ description }));
const OptStr = (description?: string) => Type.Optional(Type.Union([Type.Null(), Type.String()], { description }));
const Result = Type.Object({ message: Type.String(), invoice: Type.Ref('Invoice') });

const invoiceFields = {
  company_id: CompanyId,
  user_email: Str('Company or personal e-mail of a (non-deleted) employee of the target company'),
  description: Str(),
  service_date: Str('YYYY-MM-DD, not in the future'),
  provider_name: Str(),
  total_amount: Money('Greater than 0, at most 2 decimals'),
  amount_requested: Money('Greater than 0, at most total_amount'),
  category_name: Str(),
  subcategory_name: OptStr(),
  payment_method: Str('self (default) or provider'),
  relationship_manager_email: OptStr(),
  comment: OptStr(),
};

export async function invoicesRoutes(root: FastifyInstance, service: ReturnType<typeof createInvoicesService>): Promise<void> {
  const app = typed(root);
  app.addSchema(InvoiceSchema);
  const base = { tenancy: INVOICES_TENANCY, family: 'plain' as const, notFoundMessage: INVOICE_NOT_FOUND };

  app.get(
    '/api/invoices',
    {
      config: { ...base, name: 'invoices.index', internalMessage: 'Failed to retrieve invoices.' },
      schema: {
        tags: ['invoices'],
        summary: 'I1. List invoices of the target company',
        querystring: Type.Object({
          company_id: CompanyId,
          transaction_id: Str(),
          status: Str('unpaid, pending, partially_paid, paid'),
          approval_status: Str('pending, manager_approved, rejected, approved, denied'),
          sort: Str(
            'created_at (default), updated_at, service_date, total_amount, amount_requested, balance, status, approval_status, provider_name, category_name, transaction_id, id',
          ),
          order: Str('asc or desc (default)'),
          per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
          page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
        }),
        response: {
          200: Type.Object({
            message: Type.String(),
            invoices: Type.Array(Type.Ref('Invoice')),
            meta: Type.Object({ current_page: Type.Integer(), per_page: Type.Integer(), total: Type.Integer(), last_page: Type.Integer() }),
          }),
          ...errors,
        },
      },
    },
    async (request) => service.list(tenantId(request), request.query),
  );

  app.get(
    '/api/invoices/:transaction_id',
    {
      config: { ...base, name: 'invoices.show', internalMessage: 'Failed to retrieve invoice.' },
      schema: {
        tags: ['invoices'],
        summary: 'I2. One invoice',
        params: Params,
        querystring: Type.Object({ company_id: CompanyId }),
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
        body: Type.Object(invoiceFields),
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
        body: Type.Object({ ...invoiceFields, amount_paid: Money('One payment, added to earlier ones; at most the balance') }),
        response: { 200: Result, ...errors },
      },
    },
    async (request) => service.update(tenantId(request), request.params.transaction_id, request.body),
  );

  app.put(
    '/api/invoices/:transaction_id/approve',
    {
      config: { ...base, name: 'invoices.approve', internalMessage: 'Failed to update invoice approval.' },
      schema: {
        tags: ['invoices'],
        summary: 'I5. Manager approves or rejects; optionally e-mails the finance approver',
        params: Params,
        body: Type.Object({
          company_id: CompanyId,
          manager_email: Str('Required'),
          decision: Str('approve or reject (required)'),
          comment: OptStr(),
          notify_finance: Type.Optional(Type.Boolean()),
          finance_approver_email: OptStr('Required when notify_finance is true and decision is approve'),
        }),
        response: { 200: Result, ...errors },
      },
    },
    async (request) => service.managerDecide(tenantId(request), request.params.transaction_id, request.body),
  );

  app.put(
    '/api/invoices/:transaction_id/finance-approve',
    {
      config: { ...base, name: 'invoices.finance-approve', internalMessage: 'Failed to update invoice approval.' },
      schema: {
        tags: ['invoices'],
        summary: 'I6. Finance approves or denies (only after manager approval)',
        params: Params,
        body: Type.Object({
          company_id: CompanyId,
          finance_approver_email: Str('Required'),
          decision: Str('approve or deny (required)'),
          comment: OptStr(),
        }),
        response: { 200: Result, ...errors },
      },
    },
    async (request) => service.financeDecide(tenantId(request), request.params.transaction_id, request.body),
  );

  app.delete(
    '/api/invoices/:transaction_id/destroy',
    {
      config: { ...base, name: 'invoices.destroy', internalMessage: 'Failed to delete invoice.' },
      schema: {
        tags: ['invoices'],
        summary: 'I7. Delete an invoice that is not paid or partially paid',
        params: Params,
        querystring: Type.Object({ company_id: CompanyId }),
        response: { 200: Type.Object({ message: Type.String() }), ...errors },
      },
    },
    async (request) => service.destroy(tenantId(request), request.params.transaction_id),
  );
}
