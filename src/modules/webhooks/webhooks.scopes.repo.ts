// The delivery-time scope check of webhooks.scopes.rules.ts as SQL (docs/webhooks.md, "Scopes"): built
// from the same table, so the recorder and the sender (webhooks.events.repo.ts,
// webhooks.sender.repo.ts) decide in their statements exactly what readScopeOf decides here.
import { type SQL, sql } from 'drizzle-orm';
import { FREE_EVENTS, READ_SCOPES } from './webhooks.scopes.rules.js';

/** SQL: the read scope of the event type in `type` (READ_SCOPES as a CASE; constants only). */
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
