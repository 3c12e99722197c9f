// Forgot password (docs/console.md, "Forgot password"): /console/forgot-password asks for the
// e-mail and always answers the same; the e-mailed /console/reset-password/<secret> shows a form
// (opening it uses nothing up: mail scanners open links), whose POST sets the password once.
// The rules are the console-sessions module's password-reset service.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ResetState } from '../modules/console-sessions/index.js';
import { typed } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { html } from './html.view.js';
import { plainPage } from './layout.view.js';
import { AskBody, Params, ResetBody } from './password-reset.schemas.js';
import { askForm, resetForm } from './password-reset.view.js';
import { anonymousCsrf, checkAnonymousCsrf, sendHtml, type WebContext } from './web.routes.js';

const SAME_ANSWER =
  'If this e-mail belongs to a console administrator, a link to set a new password is on its way. It works once, for 30 minutes.';
const DEAD: Record<Exclude<ResetState, 'open'>, [number, string]> = {
  invalid: [404, 'This link is not valid.'],
  expired: [410, 'This link has expired: links work for 30 minutes. Ask for a new one.'],
  used: [410, 'This link has already been used. Ask for a new one if you need to.'],
};

function deadLink(reply: FastifyReply, state: Exclude<ResetState, 'open'>) {
  const [status, message] = DEAD[state];
  return sendHtml(
    reply,
    plainPage({ title: 'Reset link', body: html`<p>${message}</p><p><a href="/console/forgot-password">Ask for a new link</a></p>` }),
    status,
  );
}

export async function passwordResetRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  await forgotPasswordRoutes(root, ctx);
  await resetLinkRoutes(root, ctx);
}

/** Asking for a link: the form, its POST (always the same answer) and the page saying so. */
async function forgotPasswordRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const { passwordResets } = ctx.services.consoleSessions;

  app.get('/forgot-password', { schema: { hide: true } }, async (request, reply) =>
    sendHtml(reply, plainPage({ title: 'Forgot your password?', body: askForm(anonymousCsrf(ctx, request, reply)) })),
  );

  app.post('/forgot-password', { schema: { hide: true, body: AskBody }, preHandler: checkAnonymousCsrf(ctx) }, async (request, reply) => {
    const result = await passwordResets.request(request.body.email ?? '', request.ip);
    if (result === 'throttled') {
      reply.header('Retry-After', String(15 * 60));
      const body = html`<p>Too many requests for a reset link. Try again in 15 minutes.</p><p><a href="/console/login">Back to sign in</a></p>`;
      return sendHtml(reply, plainPage({ title: 'Forgot your password?', body }), 429);
    }
    return reply.redirect('/console/forgot-password/sent', 303);
  });

  app.get('/forgot-password/sent', { schema: { hide: true } }, async (_request, reply) =>
    sendHtml(
      reply,
      plainPage({
        title: 'Check your e-mail',
        body: html`<p><a href="/console/login">Back to sign in</a></p>`,
        flash: { notice: SAME_ANSWER },
      }),
    ),
  );
}

/** The e-mailed link: its form (opening it uses nothing up) and the POST that sets the password once. */
async function resetLinkRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const { passwordResets } = ctx.services.consoleSessions;

  app.get('/reset-password/:token', { schema: { hide: true, params: Params } }, async (request, reply) => {
    const state = await passwordResets.check(request.params.token);
    if (state !== 'open') return deadLink(reply, state);
    return sendHtml(
      reply,
      plainPage({ title: 'Set a new password', body: resetForm(request.params.token, anonymousCsrf(ctx, request, reply)) }),
    );
  });

  app.post(
    '/reset-password/:token',
    { schema: { hide: true, params: Params, body: ResetBody }, preHandler: checkAnonymousCsrf(ctx) },
    async (request, reply) => {
      const { token } = request.params;
      const state = await passwordResets.check(token);
      if (state !== 'open') return deadLink(reply, state);
      let result: ResetState | 'done';
      try {
        result = await passwordResets.complete(token, request.body.password ?? '', request.body.password_confirmation ?? '');
      } catch (error) {
        if (!(error instanceof DomainError) || error.code !== 'validation') throw error;
        const messages = Object.values(error.fields ?? {}).flat();
        const flash = { error: html`Please fix the password:<ul>${messages.map((m) => html`<li>${m}</li>`)}</ul>` };
        return sendHtml(
          reply,
          plainPage({ title: 'Set a new password', body: resetForm(token, anonymousCsrf(ctx, request, reply)), flash }),
          422,
        );
      }
      if (result !== 'done') return deadLink(reply, result === 'open' ? 'invalid' : result);
      return reply.redirect('/console/login?reset=1', 303);
    },
  );
}
