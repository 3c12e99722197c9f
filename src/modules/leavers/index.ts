// Leavers (docs/users.md, "Leavers"): POST /api/users/{id}/terminate and /reinstate. A module of its
// own, built after payroll runs, so that the final pay (an off-cycle draft created in terminate's
// transaction) can be handed in as a terminate step by createModules without an import cycle.
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { leaversRoutes } from './leavers.routes.js';
import { createLeaversService, type ReinstateStep, type TerminateStep, type UserReader } from './leavers.service.js';

export function createLeaversModule(
  deps: AppDeps,
  needs: { users: UserReader; terminateSteps?: readonly TerminateStep[]; reinstateSteps?: readonly ReinstateStep[] },
) {
  const services = { leavers: createLeaversService({ db: deps.db, ...needs }) };
  return {
    services,
    routes: leaversRoutes(services.leavers),
    jobs: [],
  } satisfies FeatureModule<typeof services>;
}

export type LeaversServices = ReturnType<typeof createLeaversModule>['services'];
export type { ReinstateStep, TerminateStep } from './leavers.service.js';
