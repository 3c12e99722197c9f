// The one place that turns `company_id` (query, JSON body, form field or path) into the target
// company: the caller itself or any company below it in the `created_by` tree (docs/reference.md,
// "Common rules").
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import { companyRelation } from '../db/company-tree.js';
import { badRequest, forbidden, notFound } from './errors.js';
import { MAX_INT4 } from './input-safety.js';
import type { TenancyMessages } from './types.js';

function parseCompanyId(raw: unknown, source: string): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const value = typeof raw === 'object' && raw !== null && 'value' in raw ? (raw as { value: unknown }).value : raw; // multipart field
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  // Beyond int4 is outside the integers the API takes (and would overflow in SQL): the same 400.
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > MAX_INT4) throw badRequest(`The company_id ${source} must be an integer.`);
  return Number(text);
}

/** Reads the requested company id from wherever this route accepts it. */
export function requestedCompanyId(request: FastifyRequest, messages: TenancyMessages): number | undefined {
  if (messages.source === 'path') {
    const params = request.params as Record<string, unknown>;
    return parseCompanyId(params[messages.pathParam ?? 'company_id'], 'path segment');
  }
  const fromQuery = parseCompanyId((request.query as Record<string, unknown> | undefined)?.company_id, 'field');
  const body = request.body;
  const fromBody =
    body && typeof body === 'object' && !Buffer.isBuffer(body)
      ? parseCompanyId((body as Record<string, unknown>).company_id, 'field')
      : undefined;
  if (fromQuery !== undefined && fromBody !== undefined && fromQuery !== fromBody) {
    throw badRequest('The company_id in the query and in the body differ.');
  }
  return fromQuery ?? fromBody;
}

/**
 * The target company when it needs no lookup (none requested, or the caller's own), else
 * undefined; throws the route's 400/403 like resolveTargetCompany. Synchronous: the common case of
 * every tenant route's preHandler waits for nothing.
 */
export function ownTargetCompany(request: FastifyRequest, messages: TenancyMessages): number | undefined {
  const caller = request.caller;
  if (!caller) throw forbidden(messages.forbidden);
  const requested = requestedCompanyId(request, messages);
  return requested === undefined || requested === caller.companyId ? caller.companyId : undefined;
}

/** Resolves and checks the target company, or throws the route's 400/403/404. */
export async function resolveTargetCompany(db: Db, request: FastifyRequest, messages: TenancyMessages): Promise<number> {
  const caller = request.caller;
  if (!caller) throw forbidden(messages.forbidden);
  const requested = requestedCompanyId(request, messages);
  if (requested === undefined || requested === caller.companyId) return caller.companyId;
  const found = await companyRelation(db, caller.companyId, requested);
  if (found === 'descendant' || found === 'self') return requested;
  if (found === 'missing' && messages.notFound) throw notFound(messages.notFound);
  throw forbidden(messages.forbidden);
}
