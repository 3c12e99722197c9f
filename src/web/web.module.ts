import type { FeatureModule } from '../platform/deps.js';

export const webModule: FeatureModule = {
  name: 'web',
};
