import type { FeatureModule } from '../../platform/deps.js';
import { invoicesRoutes } from './invoices.routes.js';

export const invoicesModule: FeatureModule = {
  name: 'invoices',
  routes: invoicesRoutes,
};
