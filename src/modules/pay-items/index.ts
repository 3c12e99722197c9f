// Pay item types (docs/payroll.md, "Pay item types"): the module's one public entry. The built-in
// types are law in src/tax-engine/pay-items.ts; a company adds its own here. Modules that take items
// in a request (paystubs, payroll runs) parse them with parseItemsInput and resolve their codes with
// `services.payItemTypes.resolveTypes`, handed to them by createModules.
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { payItemTypesRoutes } from './pay-item-types.routes.js';
import { createPayItemTypesService } from './pay-item-types.service.js';

export function createPayItemsModule(deps: AppDeps) {
  const services = { payItemTypes: createPayItemTypesService(deps) };
  return {
    services,
    routes: payItemTypesRoutes(services.payItemTypes),
    jobs: [],
  } satisfies FeatureModule<typeof services>;
}

export type PayItemsServices = ReturnType<typeof createPayItemsModule>['services'];

export {
  ITEM_MESSAGES,
  type ItemErrors,
  MAX_PAY_ITEMS,
  type ParsedItemInput,
  parseItemAmount,
  parseItemsInput,
  unknownTypeErrors,
} from './item-input.validation.js';
export type { PayItemTypesService, ResolveTypes } from './pay-item-types.service.js';
