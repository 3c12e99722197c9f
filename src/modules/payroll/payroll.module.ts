// Payroll: paystubs (P1-P2), contribution settings (S1-S3), contributions (S4-S5) and custom
// contributions (S6-S10). The computation itself is the pure engine in src/payroll.
import type { FeatureModule } from '../../platform/deps.js';
import { customContributionsRoutes } from './custom-contributions.routes.js';
import { paystubsRoutes } from './paystubs.routes.js';
import { settingsRoutes } from './settings.routes.js';

export const payrollModule: FeatureModule = {
  name: 'payroll',
  routes: async (app, deps) => {
    await settingsRoutes(app, deps);
    await customContributionsRoutes(app, deps);
    await paystubsRoutes(app, deps);
  },
};

export { createCustomContributionsService } from './custom-contributions.service.js';
export { createPaystubsService } from './paystubs.service.js';
export { createSettingsService } from './settings.service.js';
