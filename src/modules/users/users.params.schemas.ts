// What the users registrars share (users.routes.ts and the users.*.routes.ts it registers): tenancy
// messages, params, query fields, error bodies, and the U1 list's query and answer.
import { Type } from 'typebox';
import { BulkError, CompanyIdInput, errorResponses, FieldsError, MessageError } from '../../platform/schemas.js';
import type { TenancyMessages } from '../../platform/types.js';
import { LIST_STATUSES, USER_NOT_FOUND } from './users.service.js';

/** Every users endpoint answers a company it may not act for with this 403 (docs/reference.md, "Authentication and scopes"). */
export const USERS_TENANCY: TenancyMessages = { forbidden: 'Unauthorized or invalid company ID.' };
export const notFoundMessage = USER_NOT_FOUND;
/** U8/U9 name a missing company (the published interface). */
export const BULK_TENANCY: TenancyMessages = { ...USERS_TENANCY, notFound: 'Target company not found.' };

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
/** U5-U7 answer a malformed id with their own 400, so the id is parsed by hand. */
export const RawIdParams = Type.Object({ id: Type.String() });
export const CompanyQuery = { company_id: CompanyIdInput };
export const Message = Type.Object({ message: Type.String() });
export const errors = errorResponses(FieldsError);
/** U10/U11 answer in the settings family: {error: message}. */
export const settingsErrors = errorResponses(MessageError);
export const bulkErrors = errorResponses(BulkError);
export const tags = ['users'];

export const ListQuery = Type.Object({
  ...CompanyQuery,
  startIndex: Type.Optional(Type.Integer({ minimum: 1 })),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  page: Type.Optional(Type.Integer({ minimum: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  status: Type.Optional(
    Type.Unsafe<(typeof LIST_STATUSES)[number]>({
      type: 'string',
      enum: [...LIST_STATUSES],
      description: '`exited`: only users exited by today (their exit_date has passed; docs/users.md, "Leavers")',
    }),
  ),
});
export const UsersPage = Type.Object({
  Resources: Type.Array(Type.Ref('User')),
  totalResults: Type.Integer(),
  startIndex: Type.Integer(),
  itemsPerPage: Type.Integer(),
});

export const BulkQuery = Type.Object({
  ...CompanyQuery,
  dry_run: Type.Optional(Type.Boolean()),
  notify: Type.Optional(Type.Boolean()),
});
