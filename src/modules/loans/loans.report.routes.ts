// GET /api/loans/report (route loans.report, scopes `loans.*`; docs/payroll.md, "Loans report"):
// every loan and advance with what was repaid, settled, written off and is still owed, and the
// totals; JSON, or CSV as an attachment (`format=csv`, formula-safe, platform/csv.ts).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { sendAttachment } from '../../platform/attachment.js';
import { typed } from '../../platform/deps.js';
import { tenantId } from '../../platform/request-context.js';
import { type LoansReport, REPORT_FORMATS } from './loans.report.service.js';
import { CompanyBody, LoanErrors as errors, LOANS_TENANCY, LoanListFilters } from './loans.schemas.js';

const Decimal = (description: string) => Type.String({ description: `${description}; decimal text, 2 places` });
const Amounts = {
  principal: Decimal('lent'),
  repaid_principal: Decimal('principal repaid by paid paystubs'),
  interest_paid: Decimal('interest paid with those repayments'),
  settled: Decimal('balance closed by an early settlement'),
  written_off: Decimal('balance written off'),
  balance: Decimal('still owed'),
};
const ReportLine = Type.Object({
  loan_id: Type.Integer(),
  user_id: Type.Integer(),
  employee_id: Type.String(),
  name: Type.String(),
  kind: Type.String(),
  status: Type.String(),
  start_period: Type.String(),
  instalment: Type.String(),
  interest_rate_annual: Type.String({ description: 'percent a year' }),
  repayments: Type.Integer({ description: 'paid paystubs that repaid it' }),
  last_repayment_period: Type.Union([Type.String(), Type.Null()], { description: 'YYYY-MM' }),
  ...Amounts,
});
const ReportAnswer = Type.Object({
  message: Type.String(),
  loans: Type.Integer(),
  totals: Type.Object(Amounts),
  data: Type.Array(ReportLine),
});
const ReportQuery = Type.Object({
  company_id: CompanyBody.properties.company_id,
  ...LoanListFilters,
  format: Type.Optional(Type.String({ description: REPORT_FORMATS.join(' or ') })),
});

export function loansReportRoutes(report: LoansReport) {
  return async (root: FastifyInstance): Promise<void> => {
    const app = typed(root);
    app.get(
      '/api/loans/report',
      {
        config: { name: 'loans.report', family: 'plain', tenancy: LOANS_TENANCY },
        schema: {
          tags: ['loans'],
          summary: 'Every loan and advance with what was repaid, settled, written off and is still owed, and the totals (JSON or CSV)',
          querystring: ReportQuery,
          response: { 200: Type.Union([ReportAnswer, Type.String({ description: 'text/csv (format=csv)' })]), ...errors },
        },
      },
      async (request, reply) => {
        const answer = await report.report(tenantId(request), request.query);
        if (answer.json) return answer.json;
        return sendAttachment(reply, { filename: 'loans-report.csv', contentType: 'text/csv; charset=utf-8', body: answer.csv });
      },
    );
  };
}
