import type { FeatureModule } from '../../platform/deps.js';
import { usersRoutes } from './users.routes.js';
import { suspensionEndJob } from './users.suspension.js';

export const usersModule: FeatureModule = {
  name: 'users',
  routes: usersRoutes,
  jobs: () => [suspensionEndJob() as never],
};
