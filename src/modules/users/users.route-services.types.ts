// The users module's services the routes call (built once in index.ts), passed by usersRoutes to
// each registrar of users.*.routes.ts.
import type { createUserActions } from './users.actions.js';
import type { BankAccountVerification } from './users.bank-account.js';
import type { BulkService } from './users.bulk.service.js';
import type { createUsersService } from './users.service.js';
import type { createSuspensionService } from './users.suspension.js';

export interface UsersRouteServices {
  users: ReturnType<typeof createUsersService>;
  actions: ReturnType<typeof createUserActions>;
  suspension: ReturnType<typeof createSuspensionService>;
  bankAccount: BankAccountVerification;
  bulk: BulkService;
}
