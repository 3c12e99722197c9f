// Users (U1-U11): employees of a company, their bulk CSV import and update, suspension with its
// end job, the onboarding link the console's onboarding page completes, and the console search.
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { createAccountResolver } from '../banks/index.js';
import { type ActionDeps, createUserActions } from './users.actions.js';
import { createAdminsService } from './users.admins.service.js';
import { createBankAccountVerification } from './users.bank-account.js';
import { createBulkService } from './users.bulk.service.js';
import { createOnboardingService } from './users.onboarding.js';
import { usersRoutes } from './users.routes.js';
import { createUserSearch } from './users.search.js';
import { createUsersService } from './users.service.js';
import { createSuspensionService, suspensionEndJob } from './users.suspension.js';

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
export { type Actor, ADMIN_MESSAGES, ADMIN_ROLES, type AdminRole, type InviteInput } from './users.admins.service.js';
export { BANK_ACCOUNT_MESSAGES } from './users.bank-account.js';
export { CSV_UPLOAD, type CsvKind, IMPORT_HEADER, templateCsv, UPDATE_HEADER } from './users.csv.js';
// For the leavers module (POST /api/users/{id}/terminate, /reinstate): the user events, recorded the same way.
export { announceUsers } from './users.events.js';
export { EXIT_REASONS, type ExitReason, exitedSql, isExited, LAGOS_TODAY_SQL } from './users.exit.repo.js';
export { superAdminStays } from './users.lifecycle.repo.js';
// For the year-to-date module's CSV import (U8's upload handling and slots).
export { createSlots, readMultipart, resolveFormCompany, type UploadLimits } from './users.multipart.js';
export { ONBOARDING_EXPIRED } from './users.onboarding.js';
export { hashPassword, PASSWORD_MIN_LENGTH, validatePassword, verifyPassword } from './users.passwords.js';
export { USER_STATUSES, type UserStatus } from './users.repo.js';
export { USERS_TENANCY } from './users.routes.js';
