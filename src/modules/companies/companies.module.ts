import type { FeatureModule } from '../../platform/deps.js';

export const companiesModule: FeatureModule = {
  name: 'companies',
};
