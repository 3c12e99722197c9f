// POST /api/users/{id}/bank-account/verify (docs/banks.md): the route of the bank-account
// verification (users.bank-account.service.ts), registered by usersRoutes (users.routes.ts) after
// the User schema and before the reading routes.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../../platform/deps.js';
import { tenantId } from '../../../platform/request-context.js';
import { CompanyIdInput, errorResponses, FieldsError } from '../../../platform/schemas.js';
import type { TenancyMessages } from '../../../platform/types.js';
import type { BankAccountVerification } from './users.bank-account.service.js';

/** The route (registered by users.routes.ts, after the User schema). */
export function bankAccountRoutes(
  root: FastifyInstance,
  verification: BankAccountVerification,
  tenancy: TenancyMessages,
  mayGrant: (request: FastifyRequest) => boolean,
): void {
  const app = typed(root);
  app.post(
    '/api/users/:id/bank-account/verify',
    {
      config: { name: 'users.verify-bank-account', tenancy, notFoundMessage: 'User not found.', sensitive: true },
      schema: {
        tags: ['users'],
        summary: "Resolve the holder's name of the user's bank account through the payment provider, and store it",
        params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
        querystring: Type.Object({ company_id: CompanyIdInput }),
        response: {
          200: Type.Object({
            message: Type.String(),
            user: Type.Ref('User'),
            account_name: Type.String(),
            name_matches: Type.Boolean(),
          }),
          ...errorResponses(FieldsError),
        },
      },
    },
    async (request) => verification.verify(tenantId(request), request.params.id, mayGrant(request), request.log),
  );
}
