import type { FeatureModule } from '../../platform/deps.js';

export const invoicesModule: FeatureModule = {
  name: 'invoices',
};
