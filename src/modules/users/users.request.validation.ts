// What the users routes read off a request besides its schema-checked parts: a raw user id with its
// own 400, a body that may be absent, and whether the caller may hand out console access.
import type { FastifyRequest } from 'fastify';
import { mayGrantConsoleAccess } from '../../platform/auth/console-access.js';
import { badRequest } from '../../platform/errors.js';
import { parseRowId } from '../../platform/input-safety.js';

export function userId(raw: string): number {
  const id = parseRowId(raw);
  if (id === undefined) throw badRequest('User ID is required.');
  return id;
}

/** Whether the caller's token may hand out console access (docs/users.md, "Console roles through the API"). */
export const grants = (request: FastifyRequest) => mayGrantConsoleAccess(request.caller?.scopes ?? []);

export const bodyOf = (request: FastifyRequest) =>
  request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};
