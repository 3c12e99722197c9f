// API tokens: opaque `pk_` strings, SHA-256 at rest (tokens are 256-bit random, so a fast hash is
// enough and keeps authentication to one indexed lookup).

import crypto from 'node:crypto';
import type { Db, Executor } from '../../db/client.js';
import { recordAudit } from '../audit/record.js';
import { isOneOf } from '../guards.js';
import { type TokenRecord, tokensRepo } from './tokens.repo.js';

export type { TokenRecord };

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
  'users.verify-bank-account',
  'users.terminate',
  'users.reinstate',
  'users.year-to-date.show',
  'users.year-to-date.update',
  'users.year-to-date.import',
  'pay-item-types.read',
  'pay-item-types.create',
  'loans.index',
  'loans.user-index',
  'loans.store',
  'loans.show',
  'loans.skip',
  'loans.settle',
  'loans.write-off',
  'loans.report',
  'paystubs.index',
  'paystubs.store',
  'paystubs.payslip',
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
  'wallet.transactions',
  'payroll-runs.index',
  'payroll-runs.show',
  'payroll-runs.store',
  'payroll-runs.approve',
  'payroll-runs.pay',
  'payroll-runs.retry',
  'payroll-runs.cancel',
  'payroll-runs.payslips',
  'states.index',
  'pfas.index',
  'banks.index',
  'webhooks.index',
  'webhooks.store',
  'webhooks.show',
  'webhooks.update',
  'webhooks.destroy',
  'webhooks.rotate-secret',
  'webhooks.deliveries',
  'webhooks.retry',
  'webhooks.test',
  'remittances.index',
  'remittances.download',
  'remittances.file',
  'remittances.calendar',
  'pay-schedules.index',
  'pay-schedules.show',
  'pay-schedules.store',
  'pay-schedules.update',
  'pay-schedules.destroy',
  'annual-returns.index',
  'annual-returns.itf',
  'audit-events.index',
  'audit-events.export',
] as const;

/** A named /api route (docs/reference.md, "Authentication and scopes"): its scope name, rate-limit key and metrics label. */
export type RouteName = (typeof ROUTE_NAMES)[number];

/** The authentication generation (docs/decisions.md, "Authentication cache: up to 60 s, revocation within 1 s"). */
export const readAuthGeneration = (executor: Executor): Promise<number> => tokensRepo.generation(executor);

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

export function newTokenString(): string {
  return `pk_${crypto.randomBytes(32).toString('base64url')}`;
}

/**
 * Routes allowed by another route's scope rather than their own name: undoing an exit needs what
 * recording one needs (docs/users.md, "Leavers"). Such a name is not a scope of its own (a token
 * cannot be given `users.reinstate`); `prefix.*` wildcards still cover both.
 */
export const SCOPE_OF: Partial<Record<RouteName, RouteName>> = {
  'users.reinstate': 'users.terminate',
  // A user's opening year-to-date is part of the user (docs/payroll.md, "Opening year-to-date").
  'users.year-to-date.show': 'users.show',
  'users.year-to-date.update': 'users.update',
  'users.year-to-date.import': 'users.update',
  // The export is the same log in another format (docs/audit.md, "Reading the log").
  'audit-events.export': 'audit-events.index',
};

/** The scope that allows a route: its name, or the route named in SCOPE_OF. */
export const scopeOf = (routeName: RouteName): RouteName => SCOPE_OF[routeName] ?? routeName;

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
  if (scope === 'all' || (isOneOf(ROUTE_NAMES, scope) && SCOPE_OF[scope] === undefined)) return true;
  return scope.endsWith('.*') && ROUTE_NAMES.some((name) => name.startsWith(scope.slice(0, -1)));
}

/**
 * Scopes as named: trimmed, duplicates dropped, in the order given; `unknown` lists those that are
 * not valid (a non-string counts as the empty scope). Callers word the refusal for their surface.
 */
export function normaliseScopes(input: readonly unknown[]): { scopes: string[]; unknown: string[] } {
  const scopes = [...new Set(input.map((scope) => (typeof scope === 'string' ? scope.trim() : '')))];
  return { scopes, unknown: scopes.filter((scope) => !isValidScope(scope)) };
}

/**
 * Issues a new token for a company inside `executor`'s transaction; the previous one stops working
 * in the same transaction. Outside a larger transaction use `createTokenService().issue`.
 */
export async function issueToken(
  executor: Executor,
  companyId: number,
  scopes: string[] = ['all'],
): Promise<{ token: string; id: number; scopes: string[]; lastUsedAt: Date }> {
  const token = newTokenString();
  const revoked = await tokensRepo.revokeLive(executor, companyId);
  const row = await tokensRepo.insert(executor, companyId, hashToken(token), scopes);
  // The token itself is never recorded (docs/audit.md): its id and scopes are.
  await recordAudit(executor, [
    {
      companyId,
      action: revoked.length > 0 ? 'token.regenerated' : 'token.issued',
      target: { type: 'token', id: row.id },
      changes: { scopes: [null, scopes] },
    },
  ]);
  return { token, id: row.id, scopes, lastUsedAt: row.lastUsedAt };
}

export async function revokeTokens(executor: Executor, companyId: number): Promise<number> {
  const revoked = await tokensRepo.revokeLive(executor, companyId);
  await recordAudit(
    executor,
    revoked.map((id) => ({ companyId, action: 'token.invalidated', target: { type: 'token', id } })),
  );
  return revoked.length;
}

export function findToken(executor: Executor, token: string): Promise<TokenRecord | undefined> {
  return tokensRepo.findByHash(executor, hashToken(token));
}

/** The current (not revoked) token of a company, for the console's Security page. */
export function currentToken(executor: Executor, companyId: number) {
  return tokensRepo.current(executor, companyId);
}

/**
 * The one token service of the operator API and the console: each change runs in its own
 * transaction and then clears the authentication cache, so a revoked token stops at once.
 */
/** `authCache`: the authenticator's cache (authenticate.ts), cleared after every change to tokens. */
export function createTokenService(deps: { db: Db; authCache: { clear(): void }; config: { tokenTtlSeconds: number } }) {
  const { db, authCache, config } = deps;
  return {
    current: (companyId: number) => currentToken(db, companyId),
    /** A token expires `TOKEN_TTL_SECONDS` after its last successful use. */
    expiresAt: (lastUsedAt: Date) => new Date(lastUsedAt.getTime() + config.tokenTtlSeconds * 1000),
    async issue(companyId: number, scopes: string[]) {
      const issued = await db.transaction((tx) => issueToken(tx, companyId, scopes));
      authCache.clear();
      return issued;
    },
    /** The number of tokens revoked (0 when the company had none). */
    async revoke(companyId: number) {
      const revoked = await db.transaction((tx) => revokeTokens(tx, companyId));
      authCache.clear();
      return revoked;
    },
  };
}
