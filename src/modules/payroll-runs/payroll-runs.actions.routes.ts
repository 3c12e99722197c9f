// The actions on one run (docs/payroll-runs.md): approve, pay, retry, cancel. Registered by
// payrollRunsRoutes (payroll-runs.routes.ts) after the PayrollRun schema and the create, list and show
// routes; `recovered` is its idempotency recovery (the answer a crash lost, rebuilt from the run).
import type { RouteName } from '../../platform/auth/tokens.js';
import type { typed } from '../../platform/deps.js';
import { tenantId } from '../../platform/request-context.js';
import type { RecoverAnswer } from '../../platform/types.js';
import {
  ApprovalRequested,
  ApproveBody,
  CompanyBody,
  emptyBody,
  errors,
  IdParams,
  RUN_TENANCY,
  RunAnswer,
} from './payroll-runs.schemas.js';
import { type createPayrollRunsService, MESSAGES, RUN_NOT_FOUND } from './payroll-runs.service.js';
import type { createFunding } from './transfers/funding.service.js';

export function payrollRunActionsRoutes(
  app: ReturnType<typeof typed>,
  services: { runs: ReturnType<typeof createPayrollRunsService>; funding: ReturnType<typeof createFunding> },
  recovered: (status: number, message: string) => { recover: RecoverAnswer },
): void {
  const { runs, funding } = services;
  app.post(
    '/api/payroll-runs/:id/approve',
    {
      config: {
        name: 'payroll-runs.approve',
        family: 'plain',
        tenancy: RUN_TENANCY,
        notFoundMessage: RUN_NOT_FOUND,
        idempotency: recovered(200, MESSAGES.approved),
      },
      preValidation: emptyBody,
      schema: {
        tags: ['payroll runs'],
        summary: 'Approve a draft run (run_approval token: 200) or ask an administrator to approve it in the console (person: 202)',
        description:
          "The approver is an active administrator of the company other than the run's creator (compared as users). " +
          "With the company's run_approval `person` (the default) the run stays draft, the approver is e-mailed a link to the run's " +
          'console page (72 hours) and approves there, signed in as themselves.',
        params: IdParams,
        body: ApproveBody,
        response: { 200: RunAnswer, 202: ApprovalRequested, ...errors },
      },
    },
    async (request, reply) => {
      const answer = await runs.approve(tenantId(request), request.params.id, request.body?.approver_email);
      return reply.status('approval_request' in answer ? 202 : 200).send(answer);
    },
  );

  type Action = (companyId: number, id: string) => Promise<{ message: string; run: unknown }>;
  const action = (path: string, name: RouteName, summary: string, status: 200 | 202, run: Action, message: string) =>
    app.post(
      `/api/payroll-runs/:id/${path}`,
      {
        config: { name, family: 'plain', tenancy: RUN_TENANCY, notFoundMessage: RUN_NOT_FOUND, idempotency: recovered(status, message) },
        preValidation: emptyBody,
        schema: {
          tags: ['payroll runs'],
          summary,
          params: IdParams,
          body: CompanyBody,
          response: { [status]: RunAnswer, ...errors },
        },
      },
      async (request, reply) => reply.status(status).send((await run(tenantId(request), request.params.id)) as never),
    );
  action('pay', 'payroll-runs.pay', 'Pay an approved run from the wallet (202: transfers under way)', 202, funding.pay, MESSAGES.paying);
  action('retry', 'payroll-runs.retry', "Send a run's failed paystubs again, funding only those", 202, funding.retry, MESSAGES.paying);
  action(
    'cancel',
    'payroll-runs.cancel',
    'Cancel a draft or approved run (its paystubs become cancelled)',
    200,
    runs.cancel,
    MESSAGES.cancelled,
  );
}
