import type { FeatureModule } from '../../platform/deps.js';

export const payrollModule: FeatureModule = {
  name: 'payroll',
};
