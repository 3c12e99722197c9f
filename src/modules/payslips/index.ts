// Payslips: a paystub's PDF, a run's PDFs as a streamed ZIP, and the PDF behind the signed link of
// a paid employee's e-mail (docs/compliance.md, "Payslips").
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { createPayslipLinks } from '../paystubs/index.js';
import { payslipsRoutes } from './payslips.routes.js';
import { createPayslipsService } from './payslips.service.js';

export function createPayslipsModule(deps: AppDeps) {
  const services = {
    payslips: createPayslipsService({ db: deps.db, payslipLinks: createPayslipLinks(deps.config.publicUrl) }),
  };
  return {
    services,
    routes: payslipsRoutes(services.payslips),
    jobs: [],
  } satisfies FeatureModule<typeof services>;
}

export type PayslipsServices = ReturnType<typeof createPayslipsModule>['services'];

/** The ZIP writer of a run's payslips, for the bench's check that its cost per entry stays flat (zip-growth). */
export { zipStream } from './payslips.zip.view.js';
