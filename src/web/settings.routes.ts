// Settings: the company's vocabulary (e-mail domains, user types, roles, redirect domains for
// wallet top-ups) through company-vocabulary.service.ts, and the payroll contribution settings through the
// payroll settings service, each field with what it means for a paystub.
import type { FastifyInstance } from 'fastify';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { typed } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { type Html, html } from './html.view.js';
import { type Flash, page } from './layout.view.js';
import { runApprovalSection, runApprovalSettingsRoutes } from './run-approval.settings.routes.js';
import { DoneQuery, PayrollBody, VocabularyBody } from './settings.schemas.js';
import { payrollSection, SETTING_FIELDS, vocabularySections } from './settings.view.js';
import { companyStatutorySection, companyStatutoryValues } from './statutory.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

const DONE: Record<string, string> = {
  added: 'Added.',
  removed: 'Removed.',
  payroll: 'Payroll contribution settings saved. New paystubs use them; existing paystubs keep their figures.',
  statutory: 'Statutory registrations saved.',
  'run-approval': 'Approval setting saved.',
};

/** The whole Settings page, with `overrides` (what was typed) over the stored payroll settings. */
type Render = (session: SessionRow, flash?: Flash, overrides?: Record<string, string>) => Promise<Html>;

function settingsRenderer(ctx: WebContext): Render {
  const { vocabulary } = ctx.services.companies;
  const { settings: payrollSettings } = ctx.services.paystubs;
  return async (session, flash = {}, overrides = {}) => {
    const [profile, settings] = await Promise.all([vocabulary.profile(session.companyId), payrollSettings.get(session.companyId)]);
    const body = html`${vocabularySections(session, profile)}${payrollSection(session, { ...settings, ...overrides })}${companyStatutorySection(session, companyStatutoryValues(profile))}${runApprovalSection(session, profile)}`;
    return page({ title: 'Settings', session, section: 'settings', body, flash });
  };
}

/** What the page says about a refused change, and its status; anything but a domain refusal goes on to the error handler. */
function failure(error: unknown): { message: string; status: number } {
  if (!(error instanceof DomainError) || error.code === 'internal') throw error;
  const message =
    Object.values(error.fields ?? {})
      .flat()
      .join(' ') || error.message;
  return { message, status: error.code === 'not_found' ? 404 : error.code === 'conflict' ? 409 : 422 };
}

export async function settingsRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const render = settingsRenderer(ctx);
  await runApprovalSettingsRoutes(root, ctx, render);
  await settingsPageRoutes(root, ctx, render);
  await vocabularyRoutes(root, ctx, render);
  await payrollSettingsRoutes(root, ctx, render);
}

async function settingsPageRoutes(root: FastifyInstance, ctx: WebContext, render: Render): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  app.get('/settings', { schema: { hide: true, querystring: DoneQuery }, preHandler: guard }, async (request, reply) =>
    sendHtml(
      reply,
      await render(sessionOf(request), {
        notice: request.query.done && Object.hasOwn(DONE, request.query.done) ? DONE[request.query.done] : undefined,
      }),
    ),
  );
}

/** Add to and remove from the company's vocabulary lists. */
async function vocabularyRoutes(root: FastifyInstance, ctx: WebContext, render: Render): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { vocabulary } = ctx.services.companies;

  app.post('/settings/vocabulary/add', { schema: { hide: true, body: VocabularyBody }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const { kind, value } = request.body;
    const add = {
      domains: vocabulary.addDomains,
      'user-types': vocabulary.addUserTypes,
      roles: vocabulary.addRoles,
      'redirect-domains': vocabulary.addRedirectDomains,
    }[kind];
    try {
      if (!value.trim()) return sendHtml(reply, await render(session, { error: 'Enter a value to add.' }), 422);
      await add(session.companyId, [value]);
    } catch (error) {
      const { message, status } = failure(error);
      return sendHtml(reply, await render(session, { error: message }), status);
    }
    return reply.redirect('/console/settings?done=added', 303);
  });

  app.post('/settings/vocabulary/remove', { schema: { hide: true, body: VocabularyBody }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const { kind, value } = request.body;
    const remove = {
      domains: vocabulary.removeDomain,
      'user-types': vocabulary.removeUserType,
      roles: vocabulary.removeRole,
      'redirect-domains': vocabulary.removeRedirectDomain,
    }[kind];
    try {
      await remove(session.companyId, value);
    } catch (error) {
      const { message, status } = failure(error);
      return sendHtml(reply, await render(session, { error: message }), status);
    }
    return reply.redirect('/console/settings?done=removed', 303);
  });
}

/** The payroll contribution settings form. */
async function payrollSettingsRoutes(root: FastifyInstance, ctx: WebContext, render: Render): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { settings: payrollSettings } = ctx.services.paystubs;

  app.post('/settings/payroll', { schema: { hide: true, body: PayrollBody }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    // Every field of the form is an optional string (PayrollBody is built from SETTING_FIELDS).
    const body: Record<string, string | undefined> = request.body;
    const changes: Record<string, string> = {};
    for (const field of SETTING_FIELDS) {
      const value = body[field];
      if (value !== undefined) changes[field] = value;
    }
    try {
      await payrollSettings.update(session.companyId, changes);
    } catch (error) {
      // Show the form with what was typed, so one mistake does not lose the other edits.
      const { message, status } = failure(error);
      return sendHtml(reply, await render(session, { error: message }, changes), status);
    }
    return reply.redirect('/console/settings?done=payroll', 303);
  });
}
