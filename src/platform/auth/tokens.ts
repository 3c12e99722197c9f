// API tokens: opaque `pk_` strings, SHA-256 at rest (tokens are 256-bit random, so a fast hash is
// enough and keeps authentication to one indexed lookup).
import crypto from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { apiTokens, companies } from '../../db/schema/index.js';

export const ROUTE_NAMES = [
  'users.index',
  'users.show',
  'users.store',
  'users.update',
  'users.deactivate',
  'users.activate',
  'users.destroy',
  'users.bulk-create',
  'users.bulk-update',
  'users.suspend',
  'users.unsuspend',
  'users.import-template',
  'users.update-template',
  'paystubs.index',
  'paystubs.store',
  'contribution-settings.index',
  'contribution-settings.show',
  'contribution-settings.update',
  'contributions.company',
  'contributions.user',
  'custom-contributions.index',
  'custom-contributions.show',
  'custom-contributions.store',
  'custom-contributions.update',
  'custom-contributions.destroy',
  'companies.index',
  'companies.store',
  'companies.show',
  'companies.update',
  'companies.deactivate',
  'companies.activate',
  'invoices.index',
  'invoices.show',
  'invoices.store',
  'invoices.update',
  'invoices.approve',
  'invoices.finance-approve',
  'invoices.destroy',
  'wallet.top-up',
  'wallet.transaction-status',
  'wallet.balance',
] as const;

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

export function newTokenString(): string {
  return `pk_${crypto.randomBytes(32).toString('base64url')}`;
}

/** True when a scope list allows a route: `all`, the exact name, or a `prefix.*` wildcard. */
export function scopeAllows(scopes: readonly string[], routeName: string): boolean {
  for (const scope of scopes) {
    if (scope === 'all' || scope === routeName) return true;
    if (scope.endsWith('.*') && routeName.startsWith(scope.slice(0, -1))) return true;
  }
  return false;
}

/** A scope is valid when it is `all`, a route name, or `prefix.*` matching at least one route. */
export function isValidScope(scope: string): boolean {
  if (scope === 'all' || (ROUTE_NAMES as readonly string[]).includes(scope)) return true;
  return scope.endsWith('.*') && ROUTE_NAMES.some((name) => name.startsWith(scope.slice(0, -1)));
}

/** Issues a new token for a company; the previous one stops working in the same transaction. */
export async function issueToken(
  executor: Executor,
  companyId: number,
  scopes: string[] = ['all'],
): Promise<{ token: string; id: number; scopes: string[]; lastUsedAt: Date }> {
  const token = newTokenString();
  await executor
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiTokens.companyId, companyId), isNull(apiTokens.revokedAt)));
  const [row] = await executor
    .insert(apiTokens)
    .values({ companyId, tokenHash: hashToken(token), scopes })
    .returning({ id: apiTokens.id, lastUsedAt: apiTokens.lastUsedAt });
  return { token, id: row.id, scopes, lastUsedAt: row.lastUsedAt };
}

export async function revokeTokens(executor: Executor, companyId: number): Promise<number> {
  const rows = await executor
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiTokens.companyId, companyId), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  return rows.length;
}

export interface TokenRecord {
  id: number;
  companyId: number;
  scopes: string[];
  lastUsedAt: Date;
  expiredAt: Date | null;
  revokedAt: Date | null;
  companyActive: boolean;
  apiAccess: boolean;
  plan: string;
}

export async function findToken(executor: Executor, token: string): Promise<TokenRecord | undefined> {
  const [row] = await executor
    .select({
      id: apiTokens.id,
      companyId: apiTokens.companyId,
      scopes: apiTokens.scopes,
      lastUsedAt: apiTokens.lastUsedAt,
      expiredAt: apiTokens.expiredAt,
      revokedAt: apiTokens.revokedAt,
      companyActive: companies.isActive,
      apiAccess: companies.apiAccess,
      plan: companies.plan,
    })
    .from(apiTokens)
    .innerJoin(companies, eq(companies.id, apiTokens.companyId))
    .where(eq(apiTokens.tokenHash, hashToken(token)))
    .limit(1);
  return row;
}

/** The current (not revoked) token of a company, for the console's Security page. */
export async function currentToken(executor: Executor, companyId: number) {
  const [row] = await executor
    .select({
      id: apiTokens.id,
      scopes: apiTokens.scopes,
      lastUsedAt: apiTokens.lastUsedAt,
      expiredAt: apiTokens.expiredAt,
      createdAt: apiTokens.createdAt,
    })
    .from(apiTokens)
    .where(and(eq(apiTokens.companyId, companyId), isNull(apiTokens.revokedAt)))
    .limit(1);
  return row;
}
