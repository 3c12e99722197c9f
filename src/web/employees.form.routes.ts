// The Add employee and Edit employee forms' handling, shared by employees.routes.ts (Add) and
// employees.edit.routes.ts (Edit): what a form sends to U3/U4, the form's page, the Verify button's
// answer, and the bank-account verification after a save (docs/banks.md).
import type { FastifyBaseLogger } from 'fastify';
import { BANKS, bankByCode } from '../modules/banks/index.js';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { DomainError, type FieldErrors } from '../platform/errors.js';
import { statusSection } from './employee-status.routes.js';
import { PAY_FIELDS, PERSON_FIELDS } from './employees.schemas.js';
import { editHeader, employeeForm, labelledErrors, startAsFieldset } from './employees.view.js';
import { type Html, html } from './html.view.js';
import { type Flash, page } from './layout.view.js';
import { EMPLOYEE_FORM_FIELDS } from './statutory.routes.js';
import type { WebContext } from './web.routes.js';

export type Values = Record<string, unknown>;
export type Form = Record<string, string | undefined>;

export const WARNINGS = {
  mismatch: "The bank names a different account holder (shown below as the account on record): check that this is the employee's account.",
  unverified:
    'Saved, but the bank account could not be verified: the bank did not resolve it or could not be reached. Press Verify account to try again.',
} as const;

/** What a form sends to U3/U4: trimmed; blank person/pay/bank boxes are left out; a blank statutory box is null (unknown), as on the statutory page. */
export function formValues(form: Form, stored?: Values): Values {
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

export function domainOf(email: unknown): string {
  const text = String(email ?? '');
  return text.slice(text.indexOf('@') + 1);
}

/** A refusal of U3/U4 as the form's field errors, labelled; anything else is not ours to show. */
export function refusal(error: unknown): Record<string, string[]> {
  if (!(error instanceof DomainError) || error.code === 'internal' || error.code === 'not_found') throw error;
  return labelledErrors(error.fields ?? ({ first_name: [error.message] } as FieldErrors));
}

/** The form's page, Verify's answer and the verification after a save, over the company's services. */
export function employeeFormPages(ctx: WebContext) {
  const { bankAccount } = ctx.services.users;
  const { vocabulary } = ctx.services.companies;
  const { referenceData } = ctx.services.referenceData;
  const { accounts } = ctx.services.banks;

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
      const body = html`<p><a href="/console/employees">← Employees</a></p>${form(startAsFieldset(values))}`;
      return page({ title: 'Add employee', session, section: 'employees', body, flash: options.flash });
    }
    const user = target.user as Values;
    const name = `${String(user.first_name)} ${String(user.last_name)}`;
    const body = html`${editHeader(target.id, user, name)}
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

  return { formPage, verifyAnswer, verifyStored };
}
