// The console as one encapsulated Fastify plugin: its own cookie parser, security headers, HTML
// error pages, session resolution and CSRF checks. Nothing here leaks into the /api routes.

import cookie from '@fastify/cookie';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { randomSecret, SESSION_MAX_SECONDS, type SessionService, safeEqual } from '../modules/console-sessions/index.js';
import type { AppServices } from '../modules/index.js';
import { setAuditActor } from '../platform/audit/index.js';
import { databaseUnavailable } from '../platform/db-errors.js';
import type { AppDeps } from '../platform/deps.js';
import { DOMAIN_STATUS } from '../platform/error-handler.js';
import { DATABASE_RETRY_AFTER_SECONDS, DomainError, internal } from '../platform/errors.js';
import { isRecord } from '../platform/guards.js';
import { CONSOLE_CSS, CONSOLE_JS, CSS_PATH, JS_PATH } from './assets.view.js';
import { type Html, html } from './html.view.js';
import { page, plainPage } from './layout.view.js';

declare module 'fastify' {
  interface FastifyRequest {
    webSession?: SessionRow;
  }
}

export interface WebContext {
  deps: AppDeps;
  /** The feature modules' services (app.services): the console reads and acts only through them. */
  services: AppServices;
  sessions: SessionService;
  secure: boolean;
  /** `unlock`: the pass of an unlock link, which lifts one account's sign-in lock in this browser. */
  cookieNames: { session: string; csrf: string; unlock: string };
  publicOrigin: string;
  /** Origins a console form may be posted from (checked on every POST that names its Origin). */
  formOrigins: ReadonlySet<string>;
}

/**
 * PUBLIC_URL's origin only; with PUBLIC_URL unset also every loopback name of the port, so a
 * sign-in from http://localhost:3000 and from http://127.0.0.1:3000 both work on a first run. A
 * page of another site can never carry these origins, so the check stays as strict as before.
 */
export function consoleFormOrigins(config: { publicUrl: string; publicUrlIsDefault: boolean; port: number }): Set<string> {
  const origins = new Set([new URL(config.publicUrl).origin]);
  if (config.publicUrlIsDefault)
    for (const host of ['127.0.0.1', 'localhost', '[::1]']) origins.add(new URL(`http://${host}:${config.port}`).origin);
  return origins;
}

export function createWebContext(deps: AppDeps, services: AppServices): WebContext {
  const secure = deps.config.publicUrl.startsWith('https:');
  // __Host- cookies are only accepted over https, on path /, without a Domain: the strongest form.
  const prefix = secure ? '__Host-' : '';
  return {
    deps,
    services,
    sessions: services.consoleSessions.sessions,
    secure,
    cookieNames: { session: `${prefix}pc_session`, csrf: `${prefix}pc_csrf`, unlock: `${prefix}pc_unlock` },
    publicOrigin: new URL(deps.config.publicUrl).origin,
    formOrigins: consoleFormOrigins(deps.config),
  };
}

export function sendHtml(reply: FastifyReply, body: Html, status = 200): FastifyReply {
  return reply.status(status).type('text/html; charset=utf-8').send(body.value);
}

const FORBIDDEN_FORM = 'This form has expired or did not come from this console. Go back, reload the page and try again.';

export function cookieOptions(ctx: WebContext, maxAgeSeconds?: number) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: ctx.secure, ...(maxAgeSeconds ? { maxAge: maxAgeSeconds } : {}) };
}

export function setSessionCookie(ctx: WebContext, reply: FastifyReply, token: string): void {
  reply.setCookie(ctx.cookieNames.session, token, cookieOptions(ctx, SESSION_MAX_SECONDS));
}

/** The pre-session CSRF secret (double-submit cookie) for the sign-in and onboarding forms. */
export function anonymousCsrf(ctx: WebContext, request: FastifyRequest, reply: FastifyReply): string {
  const existing = request.cookies[ctx.cookieNames.csrf];
  if (existing && /^[\w-]{43}$/.test(existing)) return existing;
  const token = randomSecret();
  reply.setCookie(ctx.cookieNames.csrf, token, cookieOptions(ctx));
  return token;
}

function formField(request: FastifyRequest, name: string): string | undefined {
  const value = isRecord(request.body) ? request.body[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** preHandler for anonymous forms: the hidden field must equal the CSRF cookie. */
export function checkAnonymousCsrf(ctx: WebContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'POST') return;
    const cookieValue = request.cookies[ctx.cookieNames.csrf];
    const field = formField(request, '_csrf');
    if (!cookieValue || !field || !safeEqual(cookieValue, field)) {
      return sendHtml(reply, plainPage({ title: 'Form expired', body: html`<p>${FORBIDDEN_FORM}</p>`, flash: {} }), 403);
    }
  };
}

/**
 * preHandler for signed-in pages: a live session, and on POST its CSRF secret. `multipart`: a file
 * upload form, whose fields only the route reads; that route must check the `_csrf` field itself
 * (`checkCsrfField`) before it acts.
 */
export function requireSession(ctx: WebContext, options: { multipart?: boolean } = {}) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const session = await ctx.sessions.resolve(request.cookies[ctx.cookieNames.session]);
    if (!session) {
      if (request.cookies[ctx.cookieNames.session]) reply.clearCookie(ctx.cookieNames.session, cookieOptions(ctx));
      const next = request.method === 'GET' ? `?next=${encodeURIComponent(request.url)}` : '';
      return reply.redirect(`/console/login${next}`, 303);
    }
    request.webSession = session;
    // The page's changes are this person's in the audit log (docs/audit.md, "Who").
    setAuditActor(request, { type: 'console_user', id: String(session.userId), email: session.email });
    if (request.method === 'POST' && !(options.multipart && request.isMultipart())) {
      const field = formField(request, '_csrf');
      if (!field || !safeEqual(field, session.csrfToken)) {
        return sendHtml(reply, page({ title: 'Form expired', session, section: 'overview', body: html`<p>${FORBIDDEN_FORM}</p>` }), 403);
      }
    }
  };
}

/** The CSRF check of a multipart form's `_csrf` field (see requireSession's `multipart`). */
export function csrfFieldMatches(session: SessionRow, field: string | undefined): boolean {
  return field !== undefined && safeEqual(field, session.csrfToken);
}

export const FORBIDDEN_FORM_MESSAGE = FORBIDDEN_FORM;

/** The signed-in session of a page behind `requireSession` (a page without that guard has none: a 500). */
export function sessionOf(request: FastifyRequest): SessionRow {
  if (!request.webSession) throw internal('no console session on this page');
  return request.webSession;
}

export function registerWebBasics(app: FastifyInstance, ctx: WebContext): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(
      'Content-Security-Policy',
      "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self' https:",
    );
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('X-Frame-Options', 'DENY');
    // Onboarding links carry a secret in the path: never send it to another site as a Referer.
    // (Not no-referrer: Chrome then sends `Origin: null` on our own form posts.)
    reply.header('Referrer-Policy', 'same-origin');
    if (ctx.secure) reply.header('Strict-Transport-Security', 'max-age=31536000');
    // A cross-site POST is refused outright when the browser says where it comes from.
    const origin = request.headers.origin;
    if (request.method === 'POST' && origin && !ctx.formOrigins.has(origin)) {
      return sendHtml(reply, plainPage({ title: 'Form refused', body: html`<p>${FORBIDDEN_FORM}</p>` }), 403);
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith('/console/assets/')) reply.header('Cache-Control', 'no-store');
    return payload;
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    let status = 500;
    let message = 'Something went wrong on our side. Please try again; if it keeps happening, quote this reference to support.';
    if (error instanceof DomainError) {
      status = DOMAIN_STATUS[error.code];
      message = error.message;
    } else if (error.validation) {
      status = 400;
      message = 'Some of the values sent are not valid. Go back, check the form and try again.';
    } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      status = error.statusCode;
      message = 'The request could not be understood. Go back and try again.';
    } else if (databaseUnavailable(error)) {
      // As the API's 503 (docs/operations.md, "Failures"): nothing was saved; the same action later may work.
      status = 503;
      message = 'The database is unavailable; try again in a few seconds.';
      reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    }
    if (status === 503) request.log.warn({ err: error }, 'console: database unavailable');
    else if (status >= 500) request.log.error({ err: error }, 'console error');
    const body = html`<p>${message}</p>${status >= 500 ? html`<p class="muted">Reference: <code>${request.id}</code></p>` : ''}<p><a href="/console">Back to the console</a></p>`;
    const title = status === 404 ? 'Not found' : status >= 500 ? 'Something went wrong' : 'That did not work';
    return sendHtml(
      reply,
      request.webSession ? page({ title, session: request.webSession, section: 'overview', body }) : plainPage({ title, body }),
      status,
    );
  });

  app.get(CSS_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('Cache-Control', 'public, max-age=31536000, immutable').send(CONSOLE_CSS),
  );
  app.get(JS_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'public, max-age=31536000, immutable').send(CONSOLE_JS),
  );
}

export async function registerCookies(app: FastifyInstance): Promise<void> {
  await app.register(cookie);
}
