import type { FeatureModule } from '../../platform/deps.js';

export const walletModule: FeatureModule = {
  name: 'wallet',
};
