import type { FeatureModule } from '../../platform/deps.js';
import { usersRoutes } from './users.routes.js';

export const usersModule: FeatureModule = {
  name: 'users',
  routes: usersRoutes,
};
