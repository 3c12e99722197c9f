import type { FeatureModule } from '../../platform/deps.js';
import { companiesRoutes } from './companies.routes.js';

export const companiesModule: FeatureModule = {
  name: 'companies',
  routes: companiesRoutes,
};
