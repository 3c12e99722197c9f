// The users module's services the routes call (built once in index.ts), passed by usersRoutes to
// each registrar of users.*.routes.ts.

import type { BankAccountVerification } from './bank/users.bank-account.service.js';
import type { BulkService } from './import/users.bulk.service.js';
import type { createSuspensionService } from './lifecycle/users.suspension.service.js';
import type { createUserActions } from './users.actions.service.js';
import type { createUsersService } from './users.service.js';

export interface UsersRouteServices {
  users: ReturnType<typeof createUsersService>;
  actions: ReturnType<typeof createUserActions>;
  suspension: ReturnType<typeof createSuspensionService>;
  bankAccount: BankAccountVerification;
  bulk: BulkService;
}
