// Sign-in and sign-out of the console.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { typed } from '../platform/deps.js';
import { safeNext } from './auth.rules.js';
import { CsrfBody, LoginBody, LoginQuery, UnlockParams } from './auth.schemas.js';
import { loginForm, unlockForm } from './auth.view.js';
import { html } from './html.view.js';
import { plainPage } from './layout.view.js';
import {
  anonymousCsrf,
  checkAnonymousCsrf,
  cookieOptions,
  requireSession,
  sendHtml,
  setSessionCookie,
  type WebContext,
} from './web.routes.js';

const UNLOCKED = 'Sign-in is unlocked in this browser until the lock ends. Sign in with your password.';
const UNLOCK_REFUSALS = {
  invalid: [404, 'This link is not valid.'],
  expired: [410, 'This link has expired: the sign-in lock it was sent for has ended, so sign in as usual.'],
  used: [410, 'This link has already been used.'],
} as const;

function unlockRefused(reply: FastifyReply, reason: keyof typeof UNLOCK_REFUSALS): FastifyReply {
  const [status, message] = UNLOCK_REFUSALS[reason];
  const body = html`<p>${message}</p><p><a href="/console/login">Sign in</a></p>`;
  return sendHtml(reply, plainPage({ title: 'Unlock link', body }), status);
}

export async function authRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  await signInRoutes(root, ctx);
  await unlockRoutes(root, ctx);
  await signOutRoutes(root, ctx);
}

async function signInRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);

  app.get('/login', { schema: { hide: true, querystring: LoginQuery } }, async (request, reply) => {
    if (await ctx.sessions.resolve(request.cookies[ctx.cookieNames.session])) return reply.redirect(safeNext(request.query.next), 303);
    const csrf = anonymousCsrf(ctx, request, reply);
    const flash =
      request.query.signed_out !== undefined
        ? { notice: 'You are signed out.' }
        : request.query.unlocked !== undefined
          ? { notice: UNLOCKED }
          : request.query.reset !== undefined
            ? { notice: 'Your password is set. Sign in with it.' }
            : {};
    return sendHtml(reply, plainPage({ title: 'Sign in', body: loginForm(csrf, { next: request.query.next }), flash }));
  });

  app.post('/login', { schema: { hide: true, body: LoginBody }, preHandler: checkAnonymousCsrf(ctx) }, async (request, reply) => {
    const { email = '', password = '', next } = request.body;
    const result = await ctx.sessions.signIn(email, password, request.ip, request.cookies[ctx.cookieNames.unlock]);
    if (!result.ok) {
      const csrf = anonymousCsrf(ctx, request, reply);
      if (result.status === 429) reply.header('Retry-After', String(result.retryAfterSeconds ?? ctx.deps.config.signInWindowSeconds));
      const body = loginForm(csrf, { email, next }, result.message);
      return sendHtml(
        reply,
        plainPage({ title: 'Sign in', body, flash: { error: html`<span id="login-error">${result.message}</span>` } }),
        result.status,
      );
    }
    setSessionCookie(ctx, reply, result.token);
    request.log.info({ userId: result.userId, companyId: result.companyId }, 'console sign-in');
    return reply.redirect(safeNext(next), 303);
  });
}

// The link of the e-mail sent when an account's sign-in locks (account-lock.ts). The GET only
// asks: mail scanners open links, and must not use it up; the POST (a button) redeems it once.
async function unlockRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);

  app.get('/unlock/:token', { schema: { hide: true, params: UnlockParams } }, async (request, reply) => {
    const state = await ctx.sessions.unlockLinks.check(request.params.token);
    if (state !== 'ok') return unlockRefused(reply, state);
    const csrf = anonymousCsrf(ctx, request, reply);
    return sendHtml(reply, plainPage({ title: 'Lift the sign-in lock', body: unlockForm(request.params.token, csrf) }));
  });

  app.post(
    '/unlock/:token',
    { schema: { hide: true, params: UnlockParams, body: CsrfBody }, preHandler: checkAnonymousCsrf(ctx) },
    async (request, reply) => {
      const redeemed = await ctx.sessions.unlockLinks.redeem(request.params.token);
      if (!redeemed.ok) return unlockRefused(reply, redeemed.reason);
      const maxAge = Math.max(1, Math.ceil((redeemed.expiresAt.getTime() - Date.now()) / 1000));
      reply.setCookie(ctx.cookieNames.unlock, redeemed.pass, cookieOptions(ctx, maxAge));
      return reply.redirect('/console/login?unlocked=1', 303);
    },
  );
}

async function signOutRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  app.post('/logout', { schema: { hide: true }, preHandler: requireSession(ctx) }, async (request, reply) => {
    await ctx.sessions.signOut(request.cookies[ctx.cookieNames.session]);
    reply.clearCookie(ctx.cookieNames.session, cookieOptions(ctx));
    return reply.redirect('/console/login?signed_out=1', 303);
  });
}
