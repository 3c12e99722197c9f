// GET /api/paystubs/{id}/payslip (one PDF) and GET /api/payroll-runs/{id}/payslips (a streamed ZIP
// of the run's PDFs). Tenancy and errors as their families: paystubs {error} 400/403/404, payroll
// runs {error}. The public signed link PUBLIC_URL/payslips/<token> is a console page (web/payslips.routes.ts).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../platform/deps.js';
import { parseRowId } from '../../platform/input-safety.js';
import { tenantId } from '../../platform/request-context.js';
import { CompanyIdInput, errorResponses, MessageError } from '../../platform/schemas.js';
import { RUN_NOT_FOUND, RUNS_FORBIDDEN } from '../payroll-runs/index.js';
import { PAYSTUBS_FORBIDDEN, PAYSTUBS_NOT_FOUND } from '../paystubs/index.js';
import { PAYSTUB_NOT_FOUND, type PayslipsService } from './payslips.service.js';

const errors = errorResponses(MessageError);
// The payroll-runs family: a validation failure's error is {field: [messages]} (as payroll-runs.routes.ts).
const runErrors = errorResponses(Type.Object({ error: Type.Unknown({ description: 'a message, or {field: [messages]} on 422' }) }));

export function payslipsRoutes(service: PayslipsService) {
  return async (root: FastifyInstance): Promise<void> => {
    const app = typed(root);

    app.get(
      '/api/paystubs/:id/payslip',
      {
        config: {
          name: 'paystubs.payslip',
          family: 'paystubs',
          tenancy: { forbidden: PAYSTUBS_FORBIDDEN, notFound: PAYSTUBS_NOT_FOUND },
          notFoundMessage: PAYSTUB_NOT_FOUND,
        },
        schema: {
          tags: ['paystubs'],
          summary: "A paystub's payslip: one A4 PDF (attachment payslip-<employee_id>-<period end>.pdf)",
          params: Type.Object({ id: Type.String({ maxLength: 32 }) }),
          querystring: Type.Object({ company_id: CompanyIdInput }),
          response: { 200: Type.String({ description: 'application/pdf' }), ...errors },
        },
      },
      async (request, reply) => {
        const { filename, pdf } = await service.payslip(tenantId(request), parseRowId(request.params.id) ?? null);
        return reply
          .header('Content-Type', 'application/pdf')
          .header('Content-Disposition', `attachment; filename="${filename}"`)
          .header('Cache-Control', 'private, no-store')
          .send(pdf as never); // bytes: the 200 schema documents the type, nothing is serialized
      },
    );

    app.get(
      '/api/payroll-runs/:id/payslips',
      {
        // Sensitive: each call renders every payslip of a run (CPU for seconds on a large run).
        config: {
          name: 'payroll-runs.payslips',
          family: 'plain',
          sensitive: true,
          tenancy: { forbidden: RUNS_FORBIDDEN, notFound: RUN_NOT_FOUND },
          notFoundMessage: RUN_NOT_FOUND,
        },
        schema: {
          tags: ['payroll runs'],
          summary: "The run's payslips as a ZIP (one PDF per paystub that is not cancelled), streamed",
          params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
          querystring: Type.Object({ company_id: CompanyIdInput }),
          response: { 200: Type.String({ description: 'application/zip' }), ...runErrors },
        },
      },
      async (request, reply) => {
        const { filename, stream } = await service.runZip(tenantId(request), request.params.id, RUN_NOT_FOUND);
        return reply
          .header('Content-Type', 'application/zip')
          .header('Content-Disposition', `attachment; filename="${filename}"`)
          .header('Cache-Control', 'private, no-store')
          .send(stream as never); // streamed as the ZIP is written
      },
    );
  };
}
