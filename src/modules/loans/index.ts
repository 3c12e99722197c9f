// Loans and salary advances (docs/payroll.md, "Loans and salary advances"): the routes, and the two
// steps other modules run in their transactions: a regular run's repayments (loanRepayments, handed
// to paystubs' planAndWriteRun) and transfer settlement's balance moves (settleLoanRepayments).
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { loansRoutes } from './loans.routes.js';
import { createLoansService } from './loans.service.js';

export function createLoansModule(deps: AppDeps) {
  const services = { loans: createLoansService(deps) };
  return {
    services,
    routes: loansRoutes(services.loans),
    jobs: [],
  } satisfies FeatureModule<typeof services>;
}

export type LoansServices = ReturnType<typeof createLoansModule>['services'];
export { loanRepayments, settleLoanRepayments } from './repayments.service.js';
