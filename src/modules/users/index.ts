// Users (U1-U11): employees of a company, their bulk CSV import and update, suspension with its
// end job, the onboarding link the console's onboarding page completes, and the console search.
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { createAccountResolver } from '../banks/index.js';
import { createAdminsService } from './admins/users.admins.service.js';
import { createBankAccountVerification } from './bank/users.bank-account.service.js';
import { createBulkService } from './import/users.bulk.service.js';
import { createOnboardingService } from './lifecycle/users.onboarding.service.js';
import { suspensionEndJob } from './lifecycle/users.suspension.jobs.js';
import { createSuspensionService } from './lifecycle/users.suspension.service.js';
import { createUserSearch } from './read/users.search.service.js';
import { type ActionDeps, createUserActions } from './users.actions.service.js';
import { usersRoutes } from './users.routes.js';
import { createUsersService } from './users.service.js';

export function createUsersModule(deps: AppDeps) {
  const actions = createUserActions(deps);
  const services = {
    users: createUsersService(deps),
    actions,
    admins: createAdminsService(deps, actions),
    bulk: createBulkService(deps),
    suspension: createSuspensionService(deps),
    search: createUserSearch(deps),
    onboarding: createOnboardingService(deps),
    bankAccount: createBankAccountVerification({ db: deps.db, resolver: createAccountResolver(deps.config) }),
  };
  return {
    services,
    routes: (app) => usersRoutes(app, deps, services),
    jobs: [suspensionEndJob()],
  } satisfies FeatureModule<typeof services>;
}

export type UsersServices = ReturnType<typeof createUsersModule>['services'];

/** The admins service on its own: `payroll admin invite` (the CLI) on the configured database. */
export function createStandaloneAdminsService(deps: ActionDeps) {
  return createAdminsService(deps, createUserActions(deps));
}
export { type Actor, ADMIN_MESSAGES, ADMIN_ROLES, type AdminRole, type InviteInput } from './admins/users.admins.service.js';
export { BANK_ACCOUNT_MESSAGES } from './bank/users.bank-account.service.js';
export { CSV_UPLOAD, type CsvKind, IMPORT_HEADER, templateCsv, UPDATE_HEADER } from './import/users.csv.validation.js';
// For the year-to-date module's CSV import (U8's upload handling and slots).
export { createSlots, readMultipart, resolveFormCompany, type UploadLimits } from './import/users.multipart.service.js';
export { EXIT_REASONS, type ExitReason, exitedSql, isExited, LAGOS_TODAY_SQL } from './lifecycle/users.exit.repo.js';
export { superAdminStays } from './lifecycle/users.lifecycle.repo.js';
export { ONBOARDING_EXPIRED } from './lifecycle/users.onboarding.service.js';
export { hashPassword, PASSWORD_MIN_LENGTH, validatePassword, verifyPassword } from './lifecycle/users.passwords.rules.js';
export { SEARCH_SORTS, type SearchSort, USER_STATUSES, type UserStatus } from './read/users.search.repo.js';
export { isListedView, type UserSearch } from './read/users.search.service.js';
// For the leavers module (POST /api/users/{id}/terminate, /reinstate): the user events, recorded the same way.
export { announceUsers } from './users.events.js';
export { USERS_TENANCY } from './users.routes.js';
