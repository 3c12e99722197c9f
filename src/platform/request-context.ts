// Typed access to what the platform's hooks attach to a request. The fields are optional on the
// request type because a hook fills them in; a route that reads one its config did not ask for
// (no tenancy, or no name and so no API authentication) is a programming error, not bad input:
// these fail loudly with a 500 instead of acting for company `undefined`.
import type { FastifyRequest } from 'fastify';
import { internal } from './errors.js';
import type { Caller } from './types.js';

/** The company this request acts for (tenancy.ts resolved it: the route's config has `tenancy`). */
export function tenantId(request: FastifyRequest): number {
  if (request.targetCompanyId === undefined) throw internal('tenancy did not run for this route');
  return request.targetCompanyId;
}

/** The authenticated API caller (authenticate.ts set it: the route's config has a `name`). */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw internal('no authenticated caller on this route');
  return request.caller;
}
