// Loans and salary advances (docs/payroll.md, "Loans and salary advances"): the routes, and the two
// steps other modules run in their transactions: a regular run's repayments (loanRepayments, handed
// to paystubs' planAndWriteRun) and transfer settlement's balance moves (settleLoanRepayments).
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { loansReportRoutes } from './loans.report.routes.js';
import { createLoansReport } from './loans.report.service.js';
import { loansRoutes } from './loans.routes.js';
import { createLoansService } from './loans.service.js';

export function createLoansModule(deps: AppDeps) {
  const services = { loans: createLoansService(deps), report: createLoansReport(deps) };
  return {
    services,
    routes: async (app) => {
      await loansRoutes(services.loans)(app);
      await loansReportRoutes(services.report)(app);
    },
    jobs: [],
  } satisfies FeatureModule<typeof services>;
}

export type LoansServices = ReturnType<typeof createLoansModule>['services'];
export { loanRepayments, settleLoanRepayments } from './repayments.service.js';
