// Security → API, the rendering: the scope checkboxes, the token page (status, the new token shown
// once, Generate/Regenerate and Invalidate) and the two confirm pages. The routes load the token.
import type { SessionRow } from '../modules/console-sessions/index.js';
import { type createTokenService, ROUTE_NAMES, SCOPE_OF } from '../platform/auth/tokens.js';
import { type Html, html, when } from './html.view.js';
import { csrfField, type Flash, page } from './layout.view.js';

type Token = NonNullable<Awaited<ReturnType<ReturnType<typeof createTokenService>['current']>>>;

const PREFIXES = [...new Set(ROUTE_NAMES.map((name) => name.split('.')[0]))];
/** The scopes a token can hold: route names, less those allowed by another route's scope (SCOPE_OF). */
const SCOPE_NAMES = ROUTE_NAMES.filter((name) => SCOPE_OF[name] === undefined);
/** What each scope allows besides its own route: `users.terminate — also users.reinstate`. */
const scopeLabel = (name: string) => {
  const also = ROUTE_NAMES.filter((other) => SCOPE_OF[other] === name);
  return also.length > 0 ? `${name} — also ${also.join(', ')}` : name;
};

function scopeCheckbox(scope: string, checked: boolean, label: string): Html {
  const id = `scope-${scope.replace(/[^\w-]/g, '_')}`;
  return html`<label for="${id}"><input type="checkbox" id="${id}" name="scopes" value="${scope}"${checked ? html` checked` : ''}> ${label}</label>`;
}

function scopeFieldset(selected: string[]): Html {
  const has = (scope: string) => selected.includes(scope);
  return html`<fieldset>
  <legend>Scopes</legend>
  <p class="hint">What the token may call. “all” allows every endpoint; “users.*” every users endpoint; a route name exactly that endpoint.</p>
  <div class="checks">${scopeCheckbox('all', has('all'), 'all — every endpoint')}</div>
  ${PREFIXES.map(
    (prefix) => html`<fieldset>
    <legend>${prefix}</legend>
    <div class="checks">${scopeCheckbox(`${prefix}.*`, has(`${prefix}.*`), `${prefix}.* — all ${prefix} endpoints`)}${SCOPE_NAMES.filter(
      (name) => name.startsWith(`${prefix}.`),
    ).map((name) => scopeCheckbox(name, has(name), scopeLabel(name)))}</div>
  </fieldset>`,
  )}
</fieldset>`;
}

/** The company's token as the page shows it: when it expires, whether it already has, the days a call adds. */
export interface TokenState {
  token: Token | undefined;
  expiresAt: Date | undefined;
  expired: boolean;
  ttlDays: number;
}

export function tokenPage(
  session: SessionRow,
  { token, expiresAt, expired, ttlDays }: TokenState,
  options: { flash?: Flash; newToken?: string; selected?: string[] } = {},
): Html {
  // Nothing is ticked until the administrator chooses: a token's reach is a decision, not a default
  // (the current token's scopes are listed above the form instead).
  const selected = options.selected ?? [];

  const status = !token
    ? html`<p><span class="badge off">No token</span> This company has no API token. Generate one to call the API.</p>`
    : html`<p><span class="badge ${expired ? 'bad' : 'ok'}">${expired ? 'Expired' : 'Active'}</span> ${
        expired ? 'The token was not used for too long and no longer works. Regenerate it.' : 'The company has a working API token.'
      }</p>
<dl class="facts">
  <dt>Scopes</dt><dd>${token.scopes.join(', ')}</dd>
  <dt>Created</dt><dd>${when(token.createdAt)}</dd>
  <dt>Last used</dt><dd>${when(token.lastUsedAt)}</dd>
  <dt>${expired ? 'Expired' : 'Expires'}</dt><dd>${when(token.expiredAt ?? expiresAt)}${expired ? '' : html` <span class="hint">Each successful call moves this to ${ttlDays} days after that call.</span>`}</dd>
</dl>
<p class="muted">The token itself is never shown again after it is generated.</p>`;

  const reveal = options.newToken
    ? html`<section class="card" aria-labelledby="new-token-heading">
  <h2 id="new-token-heading">Your new API token</h2>
  <p><strong>Copy it now: it is shown only this once.</strong> Send it as <code>Authorization: Bearer &lt;token&gt;</code>.</p>
  <div class="token"><code id="new-token">${options.newToken}</code><button type="button" class="secondary" data-copy="new-token">Copy token</button></div>
  <p id="new-token-status" role="status" class="muted"></p>
</section>`
    : '';

  const body = html`${reveal}
<section class="card" aria-labelledby="status-heading">
  <h2 id="status-heading">API token</h2>
  ${session.companyApiAccess ? '' : html`<div class="warning">API access is disabled for this company: every API call is refused until the operator turns it back on.</div>`}
  ${status}
</section>
<section class="card" aria-labelledby="generate-heading">
  <h2 id="generate-heading">${token ? 'Regenerate token' : 'Generate token'}</h2>
  ${token ? html`<p>Regenerating replaces the current token: <strong>the current token stops working at once.</strong> You are asked to confirm first.</p>` : ''}
  <form method="post" action="/console/security/api/generate">
    ${csrfField(session.csrfToken)}
    ${scopeFieldset(selected)}
    <button type="submit">${token ? 'Regenerate token' : 'Generate token'}</button>
  </form>
</section>
${
  token
    ? html`<section class="card" aria-labelledby="invalidate-heading">
  <h2 id="invalidate-heading">Invalidate token</h2>
  <p>Invalidating stops the token at once; API calls with it are refused until you generate a new one.</p>
  <a class="button secondary" href="/console/security/api/invalidate">Invalidate token…</a>
</section>`
    : ''
}`;
  return page({ title: 'Security · API', session, section: 'security', body, flash: options.flash });
}

/** Regenerate asks first: the current token stops working at once. */
export function regenerateConfirmPage(session: SessionRow, token: Token, scopes: string[]): Html {
  const body = html`<section class="card">
  <p><strong>Regenerate the company's API token?</strong> The current token stops working at once: every integration that uses it must be given the new one.</p>
  <p>Current scopes: ${token.scopes.join(', ')}. Last used: ${when(token.lastUsedAt)}.</p>
  <p>Scopes of the new token: ${scopes.join(', ')}.</p>
  <form method="post" action="/console/security/api/generate">
    ${csrfField(session.csrfToken)}
    ${scopes.map((scope) => html`<input type="hidden" name="scopes" value="${scope}">`)}
    <input type="hidden" name="confirm" value="yes">
    <button type="submit" class="danger">Yes, regenerate the token</button>
    <a class="button secondary" href="/console/security/api">Cancel</a>
  </form>
</section>`;
  return page({ title: 'Regenerate API token', session, section: 'security', body });
}

export function invalidateConfirmPage(session: SessionRow, token: Token): Html {
  const body = html`<section class="card">
  <p><strong>Invalidate the company's API token?</strong> Every integration that uses it stops working at once. This cannot be undone; you can generate a new token afterwards.</p>
  <p>Scopes of the token: ${token.scopes.join(', ')}. Last used: ${when(token.lastUsedAt)}.</p>
  <form method="post" action="/console/security/api/invalidate" data-confirm="Invalidate the API token now?">
    ${csrfField(session.csrfToken)}
    <input type="hidden" name="confirm" value="yes">
    <button type="submit" class="danger">Yes, invalidate the token</button>
    <a class="button secondary" href="/console/security/api">Cancel</a>
  </form>
</section>`;
  return page({ title: 'Invalidate API token', session, section: 'security', body });
}
