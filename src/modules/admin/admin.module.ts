import type { FeatureModule } from '../../platform/deps.js';

export const adminModule: FeatureModule = {
  name: 'admin',
};
