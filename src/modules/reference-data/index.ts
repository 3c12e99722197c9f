// Reference data shared by every company: GET /api/states (states and their tax authorities) and
// GET /api/pfas (licensed Pension Fund Administrators). Users and companies validate codes with it.
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { referenceDataRoutes } from './reference-data.routes.js';
import { createReferenceDataService } from './reference-data.service.js';

export function createReferenceDataModule(_deps: AppDeps) {
  const services = { referenceData: createReferenceDataService() };
  return {
    services,
    routes: (app) => referenceDataRoutes(app, services.referenceData),
    jobs: [],
  } satisfies FeatureModule<typeof services>;
}

export type ReferenceDataServices = ReturnType<typeof createReferenceDataModule>['services'];
export type { PfaEntry } from './pfas.data.js';
export { PFAS } from './pfas.data.js';
export { isPfaCode, isStateCode, pfaByCode, stateByCode } from './reference-data.service.js';
export { STATES, type StateEntry } from './states.data.js';
