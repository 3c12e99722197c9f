// /api/users (docs/reference.md, U1-U13; docs/users.md): the User schema, the upload sweep and the
// bank account route (bank/), then the routes by capability, in this order: reading
// (read/users.read.routes.ts), create (create/users.create.routes.ts), update
// (update/users.update.routes.ts), deactivate/activate/delete (lifecycle/users.status.routes.ts),
// suspension (lifecycle/users.suspension.routes.ts), CSV imports (import/users.bulk.routes.ts).
// Shared schemas and tenancy messages in users.params.schemas.ts.
import type { FastifyInstance } from 'fastify';
import { type AppDeps, typed } from '../../platform/deps.js';
import { bankAccountRoutes } from './bank/users.bank-account.routes.js';
import { usersCreateRoutes } from './create/users.create.routes.js';
import { usersBulkRoutes } from './import/users.bulk.routes.js';
import { sweepStaleUploads } from './import/users.multipart.service.js';
import { usersStatusRoutes } from './lifecycle/users.status.routes.js';
import { usersSuspensionRoutes } from './lifecycle/users.suspension.routes.js';
import { usersReadRoutes } from './read/users.read.routes.js';
import { usersUpdateRoutes } from './update/users.update.routes.js';
import { USERS_TENANCY } from './users.params.schemas.js';
import { grants } from './users.request.validation.js';
import type { UsersRouteServices } from './users.route-services.types.js';
import { UserSchema } from './users.schemas.js';

export { USERS_TENANCY } from './users.params.schemas.js';

export async function usersRoutes(root: FastifyInstance, deps: AppDeps, services: UsersRouteServices): Promise<void> {
  const app = typed(root);
  app.addSchema(UserSchema);
  // Temp files of uploads cut off by a crash are removed once the server is ready.
  root.addHook('onReady', async () => {
    const removed = await sweepStaleUploads(deps.config.dataDir);
    if (removed > 0) root.log.info({ removed }, 'removed stale upload files');
  });
  bankAccountRoutes(root, services.bankAccount, USERS_TENANCY, grants);
  usersReadRoutes(app, services);
  usersCreateRoutes(app, services);
  usersUpdateRoutes(app, deps, services);
  usersStatusRoutes(app, services);
  usersSuspensionRoutes(app, services);
  usersBulkRoutes(app, deps, services.bulk);
}
