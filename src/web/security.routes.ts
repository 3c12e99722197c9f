// Security → API: the company's one API token. The page shows whether a token exists, its scopes,
// last use and expiry, never the token; Generate/Regenerate show the new token exactly once.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { createTokenService, normaliseScopes, ROUTE_NAMES, SCOPE_OF } from '../platform/auth/tokens.js';
import { typed } from '../platform/deps.js';
import { type Html, html, when } from './html.view.js';
import { csrfField, type Flash, page } from './layout.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

const PREFIXES = [...new Set(ROUTE_NAMES.map((name) => name.split('.')[0]))];
/** The scopes a token can hold: route names, less those allowed by another route's scope (SCOPE_OF). */
const SCOPE_NAMES = ROUTE_NAMES.filter((name) => SCOPE_OF[name] === undefined);
/** What each scope allows besides its own route: `users.terminate — also users.reinstate`. */
const scopeLabel = (name: string) => {
  const also = ROUTE_NAMES.filter((other) => SCOPE_OF[other] === name);
  return also.length > 0 ? `${name} — also ${also.join(', ')}` : name;
};

/** The ticked scopes (blank ones ignored): `all` wins over everything; unknown scopes are reported. */
function chosenScopes(input: string[]): { scopes: string[]; error?: string } {
  const { scopes: chosen, unknown } = normaliseScopes(input.filter((scope) => scope.trim() !== ''));
  if (chosen.length === 0) return { scopes: [], error: 'Choose at least one scope.' };
  if (unknown.length > 0) return { scopes: chosen, error: `Unknown scope: ${unknown.join(', ')}.` };
  if (chosen.includes('all')) return { scopes: ['all'] };
  return { scopes: chosen };
}

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

async function tokenPage(ctx: WebContext, session: SessionRow, options: { flash?: Flash; newToken?: string; selected?: string[] } = {}) {
  const tokens = createTokenService(ctx.deps);
  const token = await tokens.current(session.companyId);
  const expiresAt = token ? tokens.expiresAt(token.lastUsedAt) : undefined;
  const expired = token && expiresAt ? token.expiredAt !== null || expiresAt.getTime() <= Date.now() : false;
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
  <dt>${expired ? 'Expired' : 'Expires'}</dt><dd>${when(token.expiredAt ?? expiresAt)}${expired ? '' : html` <span class="hint">Each successful call moves this to ${Math.round(ctx.deps.config.tokenTtlSeconds / 86400)} days after that call.</span>`}</dd>
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

const DONE: Record<string, string> = { invalidated: 'The API token is invalidated. Calls with it are now refused.' };

export async function securityRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const tokens = createTokenService(ctx.deps);

  app.get('/security', { schema: { hide: true }, preHandler: guard }, async (_request, reply) =>
    reply.redirect('/console/security/api', 303),
  );

  app.get(
    '/security/api',
    { schema: { hide: true, querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) }) }, preHandler: guard },
    async (request, reply) => {
      const notice = request.query.done && Object.hasOwn(DONE, request.query.done) ? DONE[request.query.done] : undefined;
      return sendHtml(reply, await tokenPage(ctx, sessionOf(request), { flash: { notice } }));
    },
  );

  app.post(
    '/security/api/generate',
    {
      schema: {
        hide: true,
        body: Type.Object({
          _csrf: Type.Optional(Type.String({ maxLength: 200 })),
          scopes: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 200 })),
          confirm: Type.Optional(Type.String({ maxLength: 10 })),
        }),
      },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const { scopes, error } = chosenScopes(request.body.scopes ?? []);
      if (error) return sendHtml(reply, await tokenPage(ctx, session, { flash: { error }, selected: scopes }), 422);
      // Replacing a token stops every integration using it: ask first, on a page of its own
      // (post/redirect/get, so it works without the script and a reload does not resubmit).
      if (request.body.confirm !== 'yes' && (await tokens.current(session.companyId))) {
        const query = new URLSearchParams(scopes.map((scope) => ['scopes', scope]));
        return reply.redirect(`/console/security/api/regenerate?${query}`, 303);
      }
      const issued = await tokens.issue(session.companyId, scopes);
      request.log.info({ companyId: session.companyId, userId: session.userId, tokenId: issued.id }, 'console: API token issued');
      return sendHtml(
        reply,
        await tokenPage(ctx, session, {
          newToken: issued.token,
          flash: { notice: 'A new API token is ready. Any previous token no longer works.' },
        }),
      );
    },
  );

  app.get(
    '/security/api/regenerate',
    {
      schema: {
        hide: true,
        querystring: Type.Object({
          scopes: Type.Optional(
            Type.Union([Type.String({ maxLength: 100 }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 200 })]),
          ),
        }),
      },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const token = await tokens.current(session.companyId);
      const { scopes, error } = chosenScopes([request.query.scopes ?? []].flat());
      if (!token || error) return reply.redirect('/console/security/api', 303);
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
      return sendHtml(reply, page({ title: 'Regenerate API token', session, section: 'security', body }));
    },
  );

  app.get('/security/api/invalidate', { schema: { hide: true }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const token = await tokens.current(session.companyId);
    if (!token) return reply.redirect('/console/security/api', 303);
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
    return sendHtml(reply, page({ title: 'Invalidate API token', session, section: 'security', body }));
  });

  app.post(
    '/security/api/invalidate',
    {
      schema: {
        hide: true,
        body: Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 200 })), confirm: Type.Optional(Type.String()) }),
      },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      if (request.body.confirm !== 'yes') return reply.redirect('/console/security/api/invalidate', 303);
      await tokens.revoke(session.companyId);
      request.log.info({ companyId: session.companyId, userId: session.userId }, 'console: API token invalidated');
      return reply.redirect('/console/security/api?done=invalidated', 303);
    },
  );
}
