// Security → API: the company's one API token. The page shows whether a token exists, its scopes,
// last use and expiry, never the token; Generate/Regenerate show the new token exactly once.
import type { FastifyInstance } from 'fastify';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { createTokenService, normaliseScopes } from '../platform/auth/tokens.js';
import { typed } from '../platform/deps.js';
import type { Flash } from './layout.view.js';
import { DoneQuery, GenerateBody, InvalidateBody, RegenerateQuery } from './security.schemas.js';
import { invalidateConfirmPage, regenerateConfirmPage, tokenPage } from './security.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

/** The ticked scopes (blank ones ignored): `all` wins over everything; unknown scopes are reported. */
function chosenScopes(input: string[]): { scopes: string[]; error?: string } {
  const { scopes: chosen, unknown } = normaliseScopes(input.filter((scope) => scope.trim() !== ''));
  if (chosen.length === 0) return { scopes: [], error: 'Choose at least one scope.' };
  if (unknown.length > 0) return { scopes: chosen, error: `Unknown scope: ${unknown.join(', ')}.` };
  if (chosen.includes('all')) return { scopes: ['all'] };
  return { scopes: chosen };
}

/** The token page over the company's current token. */
async function currentTokenPage(
  ctx: WebContext,
  session: SessionRow,
  options: { flash?: Flash; newToken?: string; selected?: string[] } = {},
) {
  const tokens = createTokenService(ctx.deps);
  const token = await tokens.current(session.companyId);
  const expiresAt = token ? tokens.expiresAt(token.lastUsedAt) : undefined;
  const expired = token && expiresAt ? token.expiredAt !== null || expiresAt.getTime() <= Date.now() : false;
  const ttlDays = Math.round(ctx.deps.config.tokenTtlSeconds / 86400);
  return tokenPage(session, { token, expiresAt, expired, ttlDays }, options);
}

const DONE: Record<string, string> = { invalidated: 'The API token is invalidated. Calls with it are now refused.' };

export async function securityRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  await tokenPageRoutes(root, ctx);
  await tokenConfirmRoutes(root, ctx);
}

/** The token page and its Generate form (which asks first when it would replace a token). */
async function tokenPageRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const tokens = createTokenService(ctx.deps);

  app.get('/security', { schema: { hide: true }, preHandler: guard }, async (_request, reply) =>
    reply.redirect('/console/security/api', 303),
  );

  app.get('/security/api', { schema: { hide: true, querystring: DoneQuery }, preHandler: guard }, async (request, reply) => {
    const notice = request.query.done && Object.hasOwn(DONE, request.query.done) ? DONE[request.query.done] : undefined;
    return sendHtml(reply, await currentTokenPage(ctx, sessionOf(request), { flash: { notice } }));
  });

  app.post('/security/api/generate', { schema: { hide: true, body: GenerateBody }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const { scopes, error } = chosenScopes(request.body.scopes ?? []);
    if (error) return sendHtml(reply, await currentTokenPage(ctx, session, { flash: { error }, selected: scopes }), 422);
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
      await currentTokenPage(ctx, session, {
        newToken: issued.token,
        flash: { notice: 'A new API token is ready. Any previous token no longer works.' },
      }),
    );
  });
}

/** The confirm pages of Regenerate and Invalidate, and Invalidate itself. */
async function tokenConfirmRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const tokens = createTokenService(ctx.deps);

  app.get(
    '/security/api/regenerate',
    { schema: { hide: true, querystring: RegenerateQuery }, preHandler: guard },
    async (request, reply) => {
      const session = sessionOf(request);
      const token = await tokens.current(session.companyId);
      const { scopes, error } = chosenScopes([request.query.scopes ?? []].flat());
      if (!token || error) return reply.redirect('/console/security/api', 303);
      return sendHtml(reply, regenerateConfirmPage(session, token, scopes));
    },
  );

  app.get('/security/api/invalidate', { schema: { hide: true }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const token = await tokens.current(session.companyId);
    if (!token) return reply.redirect('/console/security/api', 303);
    return sendHtml(reply, invalidateConfirmPage(session, token));
  });

  app.post('/security/api/invalidate', { schema: { hide: true, body: InvalidateBody }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    if (request.body.confirm !== 'yes') return reply.redirect('/console/security/api/invalidate', 303);
    await tokens.revoke(session.companyId);
    request.log.info({ companyId: session.companyId, userId: session.userId }, 'console: API token invalidated');
    return reply.redirect('/console/security/api?done=invalidated', 303);
  });
}
