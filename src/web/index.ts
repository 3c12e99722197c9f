// The company console: server-rendered pages under /console plus the onboarding page, served by the
// same Fastify server inside one encapsulated plugin. app.ts composes it over the feature modules'
// services (app.services); it builds none of its own.
import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../modules/index.js';
import type { AppDeps } from '../platform/deps.js';
import { administratorsRoutes } from './administrators.routes.js';
import { auditRoutes } from './audit.routes.js';
import { authRoutes } from './auth.routes.js';
import { complianceRoutes } from './compliance.routes.js';
import { developersRoutes } from './developers.routes.js';
import { employeeStatusRoutes } from './employee-status.routes.js';
import { employeesRoutes } from './employees.routes.js';
import { employeesListRoutes } from './employees-list.routes.js';
import { employeesUploadRoutes } from './employees-upload.routes.js';
import { html } from './html.view.js';
import { invoicesRoutes } from './invoices.routes.js';
import { plainPage } from './layout.view.js';
import { leaversConsoleRoutes } from './leavers.routes.js';
import { loansConsoleRoutes } from './loans.routes.js';
import { offCycleRoutes } from './off-cycle.routes.js';
import { onboardingRoutes } from './onboarding.routes.js';
import { overviewRoutes } from './overview.routes.js';
import { passwordResetRoutes } from './password-reset.routes.js';
import { paySchedulesConsoleRoutes } from './pay-schedules.routes.js';
import { payrollRoutes } from './payroll.routes.js';
import { payrollRunRoutes } from './payroll-runs.routes.js';
import { consolePayslipRoutes, payslipLinkRoutes } from './payslips.routes.js';
import { runApprovalRoutes } from './run-approval.routes.js';
import { securityRoutes } from './security.routes.js';
import { settingsRoutes } from './settings.routes.js';
import { statutoryRoutes } from './statutory.routes.js';
import { walletRoutes } from './wallet.routes.js';
import { createWebContext, registerCookies, registerWebBasics, sendHtml } from './web.routes.js';
import { yearToDateConsoleRoutes } from './year-to-date.routes.js';

export async function registerConsole(app: FastifyInstance, services: AppServices, deps: AppDeps): Promise<void> {
  await app.register(async (scope) => {
    const ctx = createWebContext(deps, services);
    await registerCookies(scope);
    registerWebBasics(scope, ctx);
    await onboardingRoutes(scope, ctx);
    await payslipLinkRoutes(scope, ctx);
    await scope.register(
      async (consoleScope) => {
        consoleScope.setNotFoundHandler((_request, reply) =>
          sendHtml(
            reply,
            plainPage({
              title: 'Not found',
              body: html`<p>There is no such page in the console.</p><p><a href="/console">Back to the console</a></p>`,
            }),
            404,
          ),
        );
        await authRoutes(consoleScope, ctx);
        await passwordResetRoutes(consoleScope, ctx);
        await securityRoutes(consoleScope, ctx);
        await settingsRoutes(consoleScope, ctx);
        await administratorsRoutes(consoleScope, ctx);
        await overviewRoutes(consoleScope, ctx);
        await employeesListRoutes(consoleScope, ctx);
        await walletRoutes(consoleScope, ctx);
        await payrollRoutes(consoleScope, ctx);
        await statutoryRoutes(consoleScope, ctx);
        await employeesUploadRoutes(consoleScope, ctx);
        await employeesRoutes(consoleScope, ctx);
        await employeeStatusRoutes(consoleScope, ctx);
        await leaversConsoleRoutes(consoleScope, ctx);
        await loansConsoleRoutes(consoleScope, ctx);
        await yearToDateConsoleRoutes(consoleScope, ctx);
        await payrollRunRoutes(consoleScope, ctx);
        await offCycleRoutes(consoleScope, ctx);
        await runApprovalRoutes(consoleScope, ctx);
        await complianceRoutes(consoleScope, ctx);
        await paySchedulesConsoleRoutes(consoleScope, ctx);
        await invoicesRoutes(consoleScope, ctx);
        await consolePayslipRoutes(consoleScope, ctx);
        await developersRoutes(consoleScope, ctx);
        await auditRoutes(consoleScope, ctx);
      },
      { prefix: '/console' },
    );
  });
}
