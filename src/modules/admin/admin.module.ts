import type { FeatureModule } from '../../platform/deps.js';
import { adminRoutes } from './admin.routes.js';

/** The operator API; its routes exist only when ADMIN_TOKEN is set (decisions.md §9). */
export const adminModule: FeatureModule = {
  name: 'admin',
  routes: adminRoutes,
};
