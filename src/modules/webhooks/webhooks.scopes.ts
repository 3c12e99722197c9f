// Webhooks see only what their creator may read (docs/webhooks.md, "Scopes"): each event type
// carries a resource, and receiving it needs that resource's read scope. Checked when an endpoint
// is created or updated (against the calling token's scopes) and again at delivery (against the
// scopes the creating company's token has now: readableSql, used by the recorder and the sender).
// An endpoint created in the console reads what the company may (`all`).
import { type SQL, sql } from 'drizzle-orm';
import { scopeAllows } from '../../platform/auth/tokens.js';
import { forbidden } from '../../platform/errors.js';

export const EVENTS_FORBIDDEN = 'This token may not read what these events carry.';

/** [event type, or a prefix ending in '.', read scope]; the first match wins. */
const READ_SCOPES: readonly (readonly [string, string])[] = [
  ['users.import.completed', 'users.show'],
  ['user.', 'users.show'],
  ['payroll_run.', 'payroll-runs.show'],
  ['paystub.', 'payroll-runs.show'],
  ['invoice.', 'invoices.show'],
  ['wallet.', 'wallet.transactions'],
  ['company.', 'companies.show'],
];
/** Carries nothing of the company's: any endpoint may receive it. */
const FREE_EVENTS = new Set(['webhook.test']);

const matches = (type: string, key: string) => (key.endsWith('.') ? type.startsWith(key) : type === key);

/** The scope that reading `type` needs: `all` for `*` and for any type not in the table (safe by default). */
export function readScopeOf(type: string): string | null {
  if (FREE_EVENTS.has(type)) return null;
  return READ_SCOPES.find(([key]) => matches(type, key))?.[1] ?? 'all';
}

/** The subscribed types that `scopes` may not read, in the order given. */
export function unreadableEvents(scopes: readonly string[], events: readonly string[]): string[] {
  return events.filter((type) => {
    const scope = readScopeOf(type);
    return scope !== null && !scopeAllows(scopes, scope);
  });
}

/** Who creates or changes an endpoint: a token (with its scopes now) or a console user (the company's `all`). */
export type EndpointActor = { via: 'token'; companyId: number; tokenId: number; scopes: readonly string[] } | { via: 'console' };

/** 403 with the event types the actor may not read. */
export function requireReadable(actor: EndpointActor, events: readonly string[]): void {
  if (actor.via === 'console') return;
  const refused = unreadableEvents(actor.scopes, events);
  if (refused.length > 0) throw forbidden(EVENTS_FORBIDDEN, { events: refused });
}

/** SQL: the read scope of the event type in `type` (the table above as a CASE; constants only). */
function readScopeSql(type: SQL): SQL {
  const cases = READ_SCOPES.map(([key, scope]) =>
    key.endsWith('.') ? sql`WHEN left(${type}, ${key.length}) = ${key} THEN ${scope}` : sql`WHEN ${type} = ${key} THEN ${scope}`,
  );
  return sql`(CASE ${sql.join(cases, sql` `)} ELSE 'all' END)`;
}

/**
 * SQL: true when endpoint `e` may receive an event of type `type` now: a free event, a console
 * endpoint, or the creating company's live token allows the type's read scope (scopeAllows in SQL:
 * `all`, the exact name, or a `prefix.*` wildcard). No live token: nothing but free events.
 */
export function readableSql(endpoint: string, type: SQL): SQL {
  const e = sql.raw(endpoint);
  const scope = readScopeSql(type);
  return sql`(${type} IN (${sql.join(
    [...FREE_EVENTS].map((t) => sql`${t}`),
    sql`, `,
  )}) OR ${e}.created_via = 'console' OR EXISTS (
      SELECT 1 FROM api_tokens tok, unnest(tok.scopes) AS s(scope)
      WHERE tok.company_id = ${e}.created_by_company_id AND tok.revoked_at IS NULL
        AND (s.scope = 'all' OR s.scope = ${scope}
             OR (right(s.scope, 2) = '.*' AND left(${scope}, length(s.scope) - 1) = left(s.scope, -1)))))`;
}
