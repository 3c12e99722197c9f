// Webhooks see only what their creator may read (docs/webhooks.md, "Scopes"): each event type
// carries a resource, and receiving it needs that resource's read scope. Checked when an endpoint
// is created or updated (against the calling token's scopes) and again at delivery (against the
// scopes the creating company's token has now: readableSql in webhooks.scopes.repo.ts, used by the
// recorder and the sender). An endpoint created in the console reads what the company may (`all`).
import { scopeAllows } from '../../platform/auth/tokens.js';
import { forbidden } from '../../platform/errors.js';

export const EVENTS_FORBIDDEN = 'This token may not read what these events carry.';

/** [event type, or a prefix ending in '.', read scope]; the first match wins. */
export const READ_SCOPES: readonly (readonly [string, string])[] = [
  ['users.import.completed', 'users.show'],
  ['user.', 'users.show'],
  ['payroll_run.', 'payroll-runs.show'],
  ['paystub.', 'payroll-runs.show'],
  ['invoice.', 'invoices.show'],
  ['wallet.', 'wallet.transactions'],
  ['company.', 'companies.show'],
  ['loan.', 'loans.show'],
  ['remittance.', 'remittances.index'],
];
/** Carries nothing of the company's: any endpoint may receive it. */
export const FREE_EVENTS = new Set(['webhook.test']);

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
