// Add employee (/console/employees/new) and Edit employee (/console/employees/{id}/edit): the form
// of employees.view.ts, sent to the same users service as U3/U4, so the console accepts and refuses
// exactly what the API does. The Verify button asks the banks service whose account the typed
// number is (nothing saved); saving with a bank account then verifies it through the users'
// bank-account verification (docs/banks.md), which records the account name. Post/redirect/get:
// a saved form is a 303 to the employee's Edit page with a notice.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { BANKS, bankByCode } from '../modules/banks/index.js';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { typed } from '../platform/deps.js';
import { DomainError, type FieldErrors } from '../platform/errors.js';
import { lagosDate } from '../platform/format.js';
import { parseRowId } from '../platform/input-safety.js';
import { STATUS_NOTICES, statusSection } from './employee-status.routes.js';
import { EMPLOYEE_LABELS, employeeForm, labelledErrors } from './employees.view.js';
import { type Html, html } from './html.view.js';
import { type Flash, page } from './layout.view.js';
import { EMPLOYEE_FORM_FIELDS } from './statutory.routes.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

type Values = Record<string, unknown>;
type Form = Record<string, string | undefined>;

const PERSON_FIELDS = [
  'first_name',
  'last_name',
  'personal_email',
  'domain_name',
  'user_types',
  'title',
  'department',
  'start_date',
  'manager_email',
];
const PAY_FIELDS = ['base_salary', 'allowances'];
const FORM_FIELDS = [...PERSON_FIELDS, ...PAY_FIELDS, 'bank_code', 'account_number', ...EMPLOYEE_FORM_FIELDS];

const FormBody = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  intent: Type.Optional(Type.String({ maxLength: 10 })),
  start_as: Type.Optional(Type.String({ maxLength: 10 })),
  notify: Type.Optional(Type.String({ maxLength: 5 })),
  ...Object.fromEntries(FORM_FIELDS.map((f) => [f, Type.Optional(Type.String({ maxLength: f === 'pension_exempt_reason' ? 1000 : 320 }))])),
});

const WARNINGS = {
  mismatch: "The bank names a different account holder (shown below as the account on record): check that this is the employee's account.",
  unverified:
    'Saved, but the bank account could not be verified: the bank did not resolve it or could not be reached. Press Verify account to try again.',
} as const;

export const EMPLOYEE_NOTICES: Record<string, string> = {
  created: 'Employee added.',
  saved: 'Changes saved.',
  ...STATUS_NOTICES,
};

/** What a form sends to U3/U4: trimmed; blank person/pay/bank boxes are left out; a blank statutory box is null (unknown), as on the statutory page. */
function formValues(form: Form, stored?: Values): Values {
  const out: Values = {};
  for (const field of [...PERSON_FIELDS, ...PAY_FIELDS]) {
    const value = form[field]?.trim();
    if (value && value !== String(stored?.[field] ?? '')) out[field] = value;
  }
  const code = form.bank_code?.trim() ?? '';
  const account = form.account_number?.replace(/\s+/g, '') ?? '';
  // Only a changed account is sent: an unchanged one must not count as a bank-detail change (docs/banks.md).
  if ((code || account) && (code !== (stored?.bank_code ?? '') || account !== (stored?.account_number ?? ''))) {
    if (code) {
      out.bank_code = code;
      out.bank_name = bankByCode(code)?.name ?? code;
    }
    out.account_number = account;
  }
  for (const field of EMPLOYEE_FORM_FIELDS) {
    const value = form[field];
    if (value === undefined) continue;
    const normal = value.trim() === '' ? null : value.trim();
    if (!stored || normal !== (stored[field] === null || stored[field] === undefined ? null : String(stored[field]))) out[field] = normal;
  }
  return out;
}

function domainOf(email: unknown): string {
  const text = String(email ?? '');
  return text.slice(text.indexOf('@') + 1);
}

export async function employeesRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { users, actions, bankAccount } = ctx.services.users;
  const { vocabulary } = ctx.services.companies;
  const { referenceData } = ctx.services.referenceData;
  const { accounts } = ctx.services.banks;
  const Params = Type.Object({ id: Type.String({ maxLength: 20 }) });
  const employeeId = (raw: string) => parseRowId(raw) ?? 0;

  async function formPage(
    session: SessionRow,
    target: { id?: number; user?: Values },
    values: Values,
    options: { errors?: Record<string, string[]>; verified?: { accountName: string; bankName: string }; flash?: Flash } = {},
  ): Promise<Html> {
    const profile = await vocabulary.profile(session.companyId);
    const form = (extra?: Html) =>
      employeeForm({
        extra,
        session,
        action: target.id ? `/console/employees/${target.id}/edit` : '/console/employees/new',
        values,
        errors: options.errors,
        domains: profile.domains,
        userTypes: profile.userTypes,
        banks: BANKS,
        states: referenceData.states().data,
        pfas: referenceData.pfas().data,
        verified: options.verified,
        submit: target.id ? 'Save changes' : 'Add employee',
      });
    if (!target.id) {
      const startAs = String(values.start_as ?? 'active');
      const extra = html`<fieldset><legend>When the employee is added</legend><div class="checks">
  <label for="start_as-active"><input type="radio" id="start_as-active" name="start_as" value="active"${startAs === 'active' ? html` checked` : ''}> Active at once (paid from the start date)</label>
  <label for="start_as-invited"><input type="radio" id="start_as-invited" name="start_as" value="invited"${startAs === 'invited' ? html` checked` : ''}> Invited: active once they set a password through the e-mailed link</label>
  <label for="notify"><input type="checkbox" id="notify" name="notify" value="true"${values.notify === false ? '' : html` checked`}> Send them the welcome or invitation e-mail</label>
</div></fieldset>`;
      const body = html`<p><a href="/console/employees">← Employees</a></p>${form(extra)}`;
      return page({ title: 'Add employee', session, section: 'employees', body, flash: options.flash });
    }
    const user = target.user as Values;
    const name = `${String(user.first_name)} ${String(user.last_name)}`;
    const verifiedLine = user.account_name
      ? html`<p class="muted">Account on record: ${String(user.account_name)}${user.bank_account_verified_at ? ' (verified)' : ''}.</p>`
      : '';
    const body = html`<p><a href="/console/employees">← Employees</a> · <a href="/console/employees/${target.id}/statutory">Statutory details and employment</a></p>
<p>${name} · employee number <strong>${String(user.employee_id)}</strong> · ${String(user.email)}</p>${verifiedLine}
${statusSection(session, user)}
${form()}`;
    return page({ title: `Edit ${name}`, session, section: 'employees', body, flash: options.flash });
  }

  /** Verify pressed: the typed account checked and resolved; the form comes back as typed. */
  async function verifyAnswer(session: SessionRow, target: { id?: number; user?: Values }, form: Form) {
    const holder = `${form.first_name ?? target.user?.first_name ?? ''} ${form.last_name ?? target.user?.last_name ?? ''}`.trim();
    const check = await accounts.check(form.bank_code ?? '', form.account_number ?? '', holder);
    const values = { ...form, notify: form.notify === 'true' };
    if (check.ok) return { status: 200, html: await formPage(session, target, values, { verified: check }) };
    return {
      status: check.unavailable ? 502 : 422,
      html: await formPage(session, target, values, { errors: { [check.field]: [check.message] } }),
    };
  }

  /**
   * After a save with a new account: record whose it is. A refusal here does not undo the save; it
   * becomes a warning, named by a code in the redirect (never a text a link could forge).
   */
  async function verifyStored(companyId: number, id: number, log: FastifyBaseLogger): Promise<keyof typeof WARNINGS | undefined> {
    try {
      const answer = await bankAccount.verify(companyId, id, true, log);
      return answer.name_matches ? undefined : 'mismatch';
    } catch (error) {
      if (!(error instanceof DomainError) || error.code === 'internal') throw error;
      return 'unverified';
    }
  }

  const refusal = (error: unknown): Record<string, string[]> => {
    if (!(error instanceof DomainError) || error.code === 'internal' || error.code === 'not_found') throw error;
    return labelledErrors(error.fields ?? ({ first_name: [error.message] } as FieldErrors));
  };

  app.get('/employees/new', { schema: { hide: true }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const profile = await vocabulary.profile(session.companyId);
    const values = { domain_name: profile.domains[0], user_types: profile.userTypes[0], start_date: lagosDate() };
    return sendHtml(reply, await formPage(session, {}, values));
  });

  app.post('/employees/new', { schema: { hide: true, body: FormBody }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const form = request.body as Form;
    if (form.intent === 'verify') {
      const answer = await verifyAnswer(session, {}, form);
      return sendHtml(reply, answer.html, answer.status);
    }
    const body: Values = { ...formValues(form), is_active: form.start_as !== 'invited', notify: form.notify === 'true' };
    let id: number;
    try {
      id = (await actions.create(session.companyId, body, true)).user.id;
    } catch (error) {
      return sendHtml(reply, await formPage(session, {}, { ...form, notify: form.notify === 'true' }, { errors: refusal(error) }), 422);
    }
    const warning = body.account_number ? await verifyStored(session.companyId, id, request.log) : undefined;
    return reply.redirect(`/console/employees/${id}/edit?done=created${warning ? `&warn=${warning}` : ''}`, 303);
  });

  app.get(
    '/employees/:id/edit',
    {
      schema: {
        hide: true,
        params: Params,
        querystring: Type.Object({
          done: Type.Optional(Type.String({ maxLength: 20 })),
          warn: Type.Optional(Type.String({ maxLength: 20 })),
        }),
      },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const id = employeeId(request.params.id);
      const user: Values = await users.show(session.companyId, id, true);
      const { done, warn } = request.query;
      const flash: Flash = {
        notice: done ? EMPLOYEE_NOTICES[done] : undefined,
        warning: warn === 'mismatch' || warn === 'unverified' ? WARNINGS[warn] : undefined,
      };
      return sendHtml(reply, await formPage(session, { id, user }, { ...user, domain_name: domainOf(user.email) }, { flash }));
    },
  );

  app.post('/employees/:id/edit', { schema: { hide: true, params: Params, body: FormBody }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const id = employeeId(request.params.id);
    const user: Values = await users.show(session.companyId, id, true);
    const form = request.body as Form;
    if (form.intent === 'verify') {
      const answer = await verifyAnswer(session, { id, user }, form);
      return sendHtml(reply, answer.html, answer.status);
    }
    const body = formValues(form, { ...user, domain_name: domainOf(user.email) });
    try {
      await actions.update(session.companyId, id, body, [], true);
    } catch (error) {
      return sendHtml(reply, await formPage(session, { id, user }, form, { errors: refusal(error) }), 422);
    }
    const warning = body.account_number ? await verifyStored(session.companyId, id, request.log) : undefined;
    return reply.redirect(`/console/employees/${id}/edit?done=saved${warning ? `&warn=${warning}` : ''}`, 303);
  });
}

export { EMPLOYEE_LABELS };
