// Every feature module, built once, in the order they build on each other: a module that needs
// another's service receives it here, never by importing that module's files. app.ts collects
// their jobs, registers their routes and hands `AppServices` to the console.

import type { AppDeps, FeatureModule } from '../platform/deps.js';
import { createAdminModule } from './admin/index.js';
import { createAuditModule } from './audit/index.js';
import { createBanksModule } from './banks/index.js';
import { createCompaniesModule } from './companies/index.js';
import { createConsoleSessionsModule } from './console-sessions/index.js';
import { createInvoicesModule } from './invoices/index.js';
import { createLeaversModule } from './leavers/index.js';
import { createLoansModule } from './loans/index.js';
import { createPayItemsModule } from './pay-items/index.js';
import { createPaySchedulesModule } from './pay-schedules/index.js';
import { createPayrollRunsModule } from './payroll-runs/index.js';
import { createPayslipsModule } from './payslips/index.js';
import { createPaystubsModule } from './paystubs/index.js';
import { createReferenceDataModule } from './reference-data/index.js';
import { createRemittancesModule } from './remittances/index.js';
import { createUsersModule } from './users/index.js';
import { createWalletModule } from './wallet/index.js';
import { createWebhooksModule } from './webhooks/index.js';
import { createYearToDateModule } from './year-to-date/index.js';

export function createModules(deps: AppDeps) {
  const users = createUsersModule(deps);
  // Pay item types before the modules that take items in a request (paystubs, payroll runs): they
  // resolve the items' codes through its resolveTypes.
  const payItems = createPayItemsModule(deps);
  // Every P2 call records its run through the payroll-runs module (passed in: no import cycle).
  const resolveItemTypes = payItems.services.payItemTypes.resolveTypes;
  const payrollRuns = createPayrollRunsModule(deps, { resolveItemTypes });
  const paystubs = createPaystubsModule(deps, { recordRun: payrollRuns.services.recordPaystubsRun, resolveItemTypes });
  // Terminate and reinstate answer the user as U2 shows it. The final pay (an off-cycle draft of
  // payroll runs, docs/users.md, "Leavers") is a terminate step; reinstate cancels it.
  const runs = payrollRuns.services.runs;
  const leavers = createLeaversModule(deps, {
    users: users.services.users,
    terminateSteps: [
      async (tx, exit) => {
        const finalPay = exit.body.final_pay as { items: unknown; payment_date?: unknown } | undefined;
        if (finalPay === undefined) return undefined;
        return { final_pay_run: await runs.finalPay(tx, exit.companyId, exit.userId, exit.exitDate, finalPay) };
      },
    ],
    reinstateSteps: [(tx, companyId, userId) => runs.cancelFinalPay(tx, companyId, userId)],
  });
  const yearToDate = createYearToDateModule(deps);
  const loans = createLoansModule(deps);
  const payslips = createPayslipsModule(deps);
  const companies = createCompaniesModule(deps);
  const invoices = createInvoicesModule(deps);
  // Paystack's transfer.* webhooks arrive on the wallet's route and are settled by payroll runs.
  const wallet = createWalletModule(deps, { transferEvents: payrollRuns.services.transferEvents });
  const admin = createAdminModule(deps, companies.services);
  const referenceData = createReferenceDataModule(deps);
  const banks = createBanksModule(deps);
  const webhooks = createWebhooksModule(deps);
  const remittances = createRemittancesModule(deps);
  // Schedules create their runs through the same service as POST /api/payroll-runs.
  const paySchedules = createPaySchedulesModule(deps, { runs });
  // The console's sign-in and sessions (it has no routes: the console's pages use the service).
  const consoleSessions = createConsoleSessionsModule(deps);
  const audit = createAuditModule(deps);
  /** Route registration order (it is the order of the route catalog and the OpenAPI document). */
  const modules: FeatureModule[] = [
    users,
    leavers,
    yearToDate,
    payItems,
    loans,
    paystubs,
    companies,
    invoices,
    wallet,
    payrollRuns,
    paySchedules,
    remittances,
    payslips,
    webhooks,
    audit,
    admin,
    referenceData,
    banks,
    consoleSessions,
  ];
  const services = {
    users: users.services,
    leavers: leavers.services,
    yearToDate: yearToDate.services,
    payItems: payItems.services,
    loans: loans.services,
    paystubs: paystubs.services,
    companies: companies.services,
    invoices: invoices.services,
    wallet: wallet.services,
    payrollRuns: payrollRuns.services,
    paySchedules: paySchedules.services,
    remittances: remittances.services,
    payslips: payslips.services,
    webhooks: webhooks.services,
    audit: audit.services,
    admin: admin.services,
    referenceData: referenceData.services,
    banks: banks.services,
    consoleSessions: consoleSessions.services,
  };
  return { modules, services };
}

/** Every module's services by module name: `app.services`, what the console and the seed use. */
export { openApiWebhooks } from './webhooks/index.js';

export type AppServices = ReturnType<typeof createModules>['services'];
