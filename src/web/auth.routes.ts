// Sign-in and sign-out of the console.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../platform/deps.js';
import { type Html, html } from './html.view.js';
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

// `next` ends up in a Location header and in the browser's URL parser, so it is allowed only in a
// plain shape: path segments of unreserved characters under /console (no empty, `.` or `..`
// segment, no percent escapes that a browser would decode to `..`), and an optional query of
// unreserved characters and well-formed %XX escapes. Anything else (control or non-ASCII
// characters, backslashes, schemes, `//host`, fragments) falls back to /console.
const NEXT_PATH = /^\/console(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*\/?$/;
const NEXT_QUERY = /^(?:[A-Za-z0-9._~=&+,:@-]|%[0-9A-Fa-f]{2})*$/;

/** Only plain paths inside the console are followed after sign-in (no open redirect, no bad header). */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string') return '/console';
  const mark = next.indexOf('?');
  const path = mark < 0 ? next : next.slice(0, mark);
  const query = mark < 0 ? '' : next.slice(mark + 1);
  return NEXT_PATH.test(path) && NEXT_QUERY.test(query) ? next : '/console';
}

function loginForm(csrf: string, values: { email?: string; next?: string }, error?: string): Html {
  return html`<div class="card">
<form method="post" action="/console/login" novalidate>
  <input type="hidden" name="_csrf" value="${csrf}">
  <input type="hidden" name="next" value="${safeNext(values.next)}">
  <label for="email">E-mail address <span class="hint">Your company e-mail or your personal e-mail</span></label>
  <input id="email" name="email" type="email" autocomplete="username" required value="${values.email ?? ''}"${error ? html` aria-invalid="true" aria-describedby="login-error"` : ''} autofocus>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Sign in</button>
</form>
</div>
<p><a href="/console/forgot-password">Forgot your password?</a></p>
<p class="muted">The console is for company administrators. New administrators set their password through the onboarding link in their invitation e-mail.</p>`;
}

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

const LoginBody = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  email: Type.Optional(Type.String({ maxLength: 320 })),
  password: Type.Optional(Type.String({ maxLength: 1024 })),
  next: Type.Optional(Type.String({ maxLength: 2000 })),
});

export async function authRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);

  app.get(
    '/login',
    {
      schema: {
        hide: true,
        querystring: Type.Object({
          next: Type.Optional(Type.String({ maxLength: 2000 })),
          signed_out: Type.Optional(Type.String()),
          unlocked: Type.Optional(Type.String()),
          reset: Type.Optional(Type.String()),
        }),
      },
    },
    async (request, reply) => {
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
    },
  );

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

  // The link of the e-mail sent when an account's sign-in locks (account-lock.ts). The GET only
  // asks: mail scanners open links, and must not use it up; the POST (a button) redeems it once.
  const UnlockParams = Type.Object({ token: Type.String({ maxLength: 200 }) });
  app.get('/unlock/:token', { schema: { hide: true, params: UnlockParams } }, async (request, reply) => {
    const state = await ctx.sessions.unlockLinks.check(request.params.token);
    if (state !== 'ok') return unlockRefused(reply, state);
    const csrf = anonymousCsrf(ctx, request, reply);
    const body = html`<div class="card">
<p>Password sign-in to your account is locked after too many wrong passwords. This lifts the lock in this browser only; the link works once.</p>
<form method="post" action="/console/unlock/${request.params.token}">
  <input type="hidden" name="_csrf" value="${csrf}">
  <button type="submit">Lift the lock in this browser</button>
</form>
</div>`;
    return sendHtml(reply, plainPage({ title: 'Lift the sign-in lock', body }));
  });

  app.post(
    '/unlock/:token',
    {
      schema: { hide: true, params: UnlockParams, body: Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 200 })) }) },
      preHandler: checkAnonymousCsrf(ctx),
    },
    async (request, reply) => {
      const redeemed = await ctx.sessions.unlockLinks.redeem(request.params.token);
      if (!redeemed.ok) return unlockRefused(reply, redeemed.reason);
      const maxAge = Math.max(1, Math.ceil((redeemed.expiresAt.getTime() - Date.now()) / 1000));
      reply.setCookie(ctx.cookieNames.unlock, redeemed.pass, cookieOptions(ctx, maxAge));
      return reply.redirect('/console/login?unlocked=1', 303);
    },
  );

  app.post('/logout', { schema: { hide: true }, preHandler: requireSession(ctx) }, async (request, reply) => {
    await ctx.sessions.signOut(request.cookies[ctx.cookieNames.session]);
    reply.clearCookie(ctx.cookieNames.session, cookieOptions(ctx));
    return reply.redirect('/console/login?signed_out=1', 303);
  });
}
