// The one place that turns `company_id` (query, JSON body, form field or path) into the target
// company: the caller itself or any company below it in the `created_by` tree (decisions.md §2).
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { type Db, queryRows } from '../db/client.js';
import { badRequest, forbidden, notFound } from './errors.js';
import type { TenancyMessages } from './types.js';

function parseCompanyId(raw: unknown, source: string): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const value = typeof raw === 'object' && raw !== null && 'value' in raw ? (raw as { value: unknown }).value : raw; // multipart field
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1) throw badRequest(`The company_id ${source} must be an integer.`);
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

/** 'self' | 'descendant' | 'other' (exists, not ours) | 'missing'. */
export async function relation(db: Db, callerId: number, targetId: number): Promise<'self' | 'descendant' | 'other' | 'missing'> {
  if (callerId === targetId) return 'self';
  const rows = await queryRows<{ id: number; descendant: boolean }>(
    db,
    sql`WITH RECURSIVE chain(id, created_by, depth) AS (
          SELECT id, created_by, 0 FROM companies WHERE id = ${targetId}
          UNION ALL
          SELECT c.id, c.created_by, chain.depth + 1 FROM companies c JOIN chain ON c.id = chain.created_by
          WHERE chain.depth < 64
        )
        SELECT ${targetId}::int AS id, bool_or(id = ${callerId}) AS descendant FROM chain HAVING count(*) > 0`,
  );
  if (rows.length === 0) return 'missing';
  return rows[0].descendant ? 'descendant' : 'other';
}

/** Resolves and checks the target company, or throws the route's 400/403/404. */
export async function resolveTargetCompany(db: Db, request: FastifyRequest, messages: TenancyMessages): Promise<number> {
  const caller = request.caller;
  if (!caller) throw forbidden(messages.forbidden);
  const requested = requestedCompanyId(request, messages);
  if (requested === undefined || requested === caller.companyId) return caller.companyId;
  const found = await relation(db, caller.companyId, requested);
  if (found === 'descendant' || found === 'self') return requested;
  if (found === 'missing' && messages.notFound) throw notFound(messages.notFound);
  throw forbidden(messages.forbidden);
}

/** Ids of the caller and every company below it (S1, console). */
export async function descendantIds(db: Db, companyId: number): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`WITH RECURSIVE tree(id, depth) AS (
          SELECT id, 0 FROM companies WHERE id = ${companyId}
          UNION ALL
          SELECT c.id, tree.depth + 1 FROM companies c JOIN tree ON c.created_by = tree.id WHERE tree.depth < 64
        ) SELECT id FROM tree ORDER BY id`,
  );
  return rows.map((row) => row.id);
}
