// I5 and I6 (docs/reference.md): the manager's and then finance's decision on an invoice. Registered
// by invoicesRoutes (invoices.routes.ts) after the Invoice schema and I1-I4.
import type { typed } from '../../platform/deps.js';
import { tenantId } from '../../platform/request-context.js';
import { base, errors, FinanceDecisionBody, ManagerDecisionBody, Params, Result } from './invoices.schemas.js';
import type { createInvoicesService } from './invoices.service.js';

export function invoiceApprovalRoutes(app: ReturnType<typeof typed>, service: ReturnType<typeof createInvoicesService>): void {
  app.put(
    '/api/invoices/:transaction_id/approve',
    {
      config: { ...base, name: 'invoices.approve', internalMessage: 'Failed to update invoice approval.' },
      schema: {
        tags: ['invoices'],
        summary: 'I5. Manager approves or rejects; optionally e-mails the finance approver',
        params: Params,
        body: ManagerDecisionBody,
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
        body: FinanceDecisionBody,
        response: { 200: Result, ...errors },
      },
    },
    async (request) => service.financeDecide(tenantId(request), request.params.transaction_id, request.body),
  );
}
