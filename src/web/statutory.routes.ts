// Statutory data in the console: an employee's statutory details (NIN, tax ID, state, RSA PIN and
// PFA, NHF, reliefs) on /console/employees/:id/statutory (the employee's page, which also shows
// their Employment section: leavers.routes.ts), and the company's sector and
// registrations as a section of Settings. Both go through the same services as the API (U4 and the
// companies' statutory service), so the same values are accepted with the same messages. An emptied
// box means "unknown" (null), unlike the API's blank "unchanged": a form always sends all.
import type { FastifyInstance } from 'fastify';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { typed } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { parseRowId } from '../platform/input-safety.js';
import { html } from './html.view.js';
import { type Flash, page } from './layout.view.js';
import { employmentSection, LEAVER_NOTICES } from './leavers.view.js';
import { payEventsSection } from './loans.routes.js';
import { CompanyBody, DoneQuery, EmployeeBody, Params } from './statutory.schemas.js';
import {
  COMPANY_FORM_FIELDS,
  companyStatutorySection,
  EMPLOYEE_FORM_FIELDS,
  employeeStatutoryCard,
  type Values,
} from './statutory.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

// The employee form's statutory inputs, labels and fields, where the Add/Edit employee pages import them.
export { EMPLOYEE_FORM_FIELDS, STATUTORY_LABELS, statutoryInputs } from './statutory.view.js';

/** The form's strings as a U4 body: an emptied box is null (unknown); booleans as sent. */
function formToBody(form: Record<string, string | undefined>, fields: readonly string[]): Values {
  const body: Values = {};
  for (const field of fields) {
    const value = form[field];
    if (value !== undefined) body[field] = value.trim() === '' ? null : value;
  }
  return body;
}

/** `LA: 1234567` lines → {LA: "1234567"}; a line without a separator keeps its text as the code. */
export function parseTaxIdLines(textValue: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of textValue.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (!trimmed) continue;
    const match = /^([^:=\s]+)\s*[:=\s]\s*(.*)$/.exec(trimmed);
    if (match) out[match[1]] = match[2].trim();
    else out[trimmed] = '';
  }
  return out;
}

const messagesOf = (error: unknown): string => {
  if (!(error instanceof DomainError) || error.code === 'internal') throw error;
  return (
    Object.entries(error.fields ?? {})
      .map(([, messages]) => messages.join(' '))
      .join(' ') || error.message
  );
};

const employeeId = (raw: string) => parseRowId(raw) ?? 0;

/** The employee's page: the statutory details, then the Employment section and the pay events. */
async function employeePage(ctx: WebContext, session: SessionRow, id: number, flash: Flash = {}, typed?: Values) {
  const { referenceData } = ctx.services.referenceData;
  const user: Values = await ctx.services.users.users.show(session.companyId, id);
  const values = { ...user, ...typed };
  const body = employeeStatutoryCard(session, id, user, values, referenceData.states().data, referenceData.pfas().data);
  return page({
    title: 'Statutory details',
    session,
    section: 'employees',
    body: html`${body}${employmentSection(session, user)}${payEventsSection(Number(user.id))}`,
    flash,
  });
}

export async function statutoryRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  await employeeStatutoryRoutes(root, ctx);
  await companyStatutoryRoutes(root, ctx);
}

/** The employee's page and its statutory details form. */
async function employeeStatutoryRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { actions } = ctx.services.users;

  app.get(
    '/employees/:id/statutory',
    { schema: { hide: true, params: Params, querystring: DoneQuery }, preHandler: guard },
    async (request, reply) => {
      const done = request.query.done;
      const flash = done ? { notice: LEAVER_NOTICES[done] ?? 'Statutory details saved.' } : {};
      return sendHtml(reply, await employeePage(ctx, sessionOf(request), employeeId(request.params.id), flash));
    },
  );

  app.post(
    '/employees/:id/statutory',
    { schema: { hide: true, params: Params, body: EmployeeBody }, preHandler: guard },
    async (request, reply) => {
      const session = sessionOf(request);
      const id = employeeId(request.params.id);
      const body = formToBody(request.body as Record<string, string | undefined>, EMPLOYEE_FORM_FIELDS);
      try {
        await actions.update(session.companyId, id, body, [], false);
      } catch (error) {
        const message = messagesOf(error);
        if (error instanceof DomainError && error.code === 'not_found') throw error;
        return sendHtml(reply, await employeePage(ctx, session, id, { error: message }, body), 422);
      }
      return reply.redirect(`/console/employees/${id}/statutory?done=1`, 303);
    },
  );
}

/** The Settings section's form: the company's sector and registrations. */
async function companyStatutoryRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { statutory } = ctx.services.companies;

  app.post('/settings/statutory', { schema: { hide: true, body: CompanyBody }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const form = request.body as Record<string, string | undefined>;
    const body = formToBody(form, COMPANY_FORM_FIELDS);
    if (typeof body.tax_ids === 'string') body.tax_ids = parseTaxIdLines(body.tax_ids);
    try {
      await statutory.update(session.companyId, body);
    } catch (error) {
      const message = messagesOf(error);
      // The section alone, with what was typed, so one mistake does not lose the other edits.
      const section = companyStatutorySection(session, { ...body, tax_ids: form.tax_ids ?? '' });
      return sendHtml(reply, page({ title: 'Settings', session, section: 'settings', body: section, flash: { error: message } }), 422);
    }
    return reply.redirect('/console/settings?done=statutory', 303);
  });
}
