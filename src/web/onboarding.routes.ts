// PUBLIC_URL/onboarding/<token>: an invited employee sets a password (U4 rules), which activates
// the user and completes onboarding. The rules live in users.onboarding; this is the page.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { ONBOARDING_EXPIRED, PASSWORD_MIN_LENGTH } from '../modules/users/index.js';
import { typed } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { html } from './html.view.js';
import { plainPage } from './layout.view.js';
import { anonymousCsrf, checkAnonymousCsrf, sendHtml, type WebContext } from './web.routes.js';

const Params = Type.Object({ token: Type.String({ minLength: 1, maxLength: 512 }) });

function deadLink(reply: FastifyReply, expired: boolean) {
  const body = expired
    ? html`<p>This onboarding link has expired: links work for 7 days after the invitation.</p><p>Ask an administrator of your company to send you a new invitation.</p>`
    : html`<p>This onboarding link is not valid. It may have been used already: if you have set your password, you are done and can close this page.</p><p>Otherwise ask an administrator of your company to send you a new invitation.</p>`;
  // 410 Gone says "this was a real link, and it is over"; 404 covers unknown and used links alike.
  return sendHtml(reply, plainPage({ title: expired ? 'Link expired' : 'Link not valid', body }), expired ? 410 : 404);
}

function passwordForm(token: string, csrf: string, firstName: string, email: string, errors: string[] = []) {
  const describedBy = errors.length ? 'password-rules password-errors' : 'password-rules';
  return html`<p>Welcome, ${firstName}. Choose a password for <strong>${email}</strong> to finish setting up your account.</p>
<div class="card">
<form method="post" action="/onboarding/${encodeURIComponent(token)}" novalidate>
  <input type="hidden" name="_csrf" value="${csrf}">
  <input type="text" name="username" value="${email}" autocomplete="username" hidden>
  <label for="password">New password</label>
  <span class="hint" id="password-rules">At least ${PASSWORD_MIN_LENGTH} characters, with at least one upper-case letter and one symbol (such as ! or -).</span>
  <input id="password" name="password" type="password" autocomplete="new-password" required aria-describedby="${describedBy}"${errors.length ? html` aria-invalid="true"` : ''} autofocus>
  <label for="password_confirmation">Repeat the password</label>
  <input id="password_confirmation" name="password_confirmation" type="password" autocomplete="new-password" required>
  <button type="submit">Set password and activate my account</button>
</form>
</div>`;
}

export async function onboardingRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const { onboarding } = ctx.services.users;

  app.get('/onboarding/:token', { schema: { hide: true, params: Params } }, async (request, reply) => {
    const link = await onboarding.find(request.params.token);
    if (link?.state !== 'open') return deadLink(reply, link?.state === 'expired');
    const csrf = anonymousCsrf(ctx, request, reply);
    return sendHtml(
      reply,
      plainPage({ title: 'Set your password', body: passwordForm(request.params.token, csrf, link.firstName, link.email) }),
    );
  });

  app.post(
    '/onboarding/:token',
    {
      schema: {
        hide: true,
        params: Params,
        body: Type.Object({
          _csrf: Type.Optional(Type.String({ maxLength: 200 })),
          username: Type.Optional(Type.String({ maxLength: 320 })),
          password: Type.Optional(Type.String({ maxLength: 1024 })),
          password_confirmation: Type.Optional(Type.String({ maxLength: 1024 })),
        }),
      },
      preHandler: checkAnonymousCsrf(ctx),
    },
    async (request, reply) => {
      const { token } = request.params;
      const link = await onboarding.find(token);
      if (link?.state !== 'open') return deadLink(reply, link?.state === 'expired');
      try {
        await onboarding.complete(token, request.body.password ?? '', request.body.password_confirmation ?? '');
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        if (error.code === 'validation') {
          const messages = Object.values(error.fields ?? {}).flat();
          const csrf = anonymousCsrf(ctx, request, reply);
          const flash = {
            error: html`<span id="password-errors">Please fix the password:<ul>${messages.map((m) => html`<li>${m}</li>`)}</ul></span>`,
          };
          return sendHtml(
            reply,
            plainPage({ title: 'Set your password', body: passwordForm(token, csrf, link.firstName, link.email, messages), flash }),
            422,
          );
        }
        if (error.code === 'not_found' || error.message === ONBOARDING_EXPIRED)
          return deadLink(reply, error.message === ONBOARDING_EXPIRED);
        throw error;
      }
      request.log.info({ userId: link.userId, companyId: link.companyId }, 'onboarding completed');
      const body = html`<p>Your password is set and your account is active. Sign in with <strong>${link.email}</strong> (or your personal e-mail) and your new password.</p>
<p>Company administrators can now <a href="/console/login">sign in to the console</a>.</p>`;
      return sendHtml(reply, plainPage({ title: 'You are all set', body, flash: { notice: 'Onboarding complete.' } }));
    },
  );
}
