// The Add employee and Edit employee form (docs/console.md, "People"): names, e-mail, type, pay,
// bank account with its Verify button, and the statutory details. Refusals are shown beside their
// fields and in a summary at the top, each naming the field by its label ("RSA PIN"), never by its
// key ("rsa_pin").
import type { SessionRow } from '../modules/console-sessions/index.js';
import type { FieldErrors } from '../platform/errors.js';
import { type Html, html } from './html.view.js';
import { csrfField } from './layout.view.js';
import { STATUTORY_LABELS, statutoryInputs } from './statutory.routes.js';

type Values = Record<string, unknown>;
type Option = { code: string; name: string };

export const EMPLOYEE_LABELS: Record<string, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  personal_email: 'Personal e-mail',
  domain_name: 'Company e-mail domain',
  user_types: 'Employee type',
  title: 'Job title',
  department: 'Department',
  start_date: 'Start date',
  manager_email: "Manager's e-mail",
  base_salary: 'Base salary',
  allowances: 'Allowances',
  bank_code: 'Bank',
  bank_name: 'Bank',
  account_number: 'Account number',
  ...STATUTORY_LABELS,
};

/** Keys as the service's messages spell them ("rsa pin"), longest first so "bank name" wins over "name". */
const SPELLED = Object.keys(EMPLOYEE_LABELS)
  .map((key) => [key.replace(/_/g, ' '), EMPLOYEE_LABELS[key]] as const)
  .sort((a, b) => b[0].length - a[0].length);

/** A service message with every field key it names replaced by the field's label. */
export function labelMessage(message: string): string {
  let out = message;
  for (const [spelled, label] of SPELLED) {
    out = out.replace(new RegExp(`\\b(The|selected) ${spelled}\\b`, 'g'), `$1 ${label}`);
    out = out.replace(new RegExp(`\\bwhen ${spelled}\\b`, 'g'), `when ${label}`);
  }
  return out;
}

/** Field errors with labelled messages, keyed by the form's field (bank_name errors belong to the Bank select). */
export function labelledErrors(errors: FieldErrors = {}): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(errors)) {
    const key = field === 'bank_name' ? 'bank_code' : field;
    out[key] = [...(out[key] ?? []), ...messages.map(labelMessage)];
  }
  return out;
}

/** The summary above the form: each refusal under its field's label. */
export function errorSummary(errors: Record<string, string[]>): Html {
  const entries = Object.entries(errors);
  if (entries.length === 0) return html``;
  const count = entries.reduce((n, [, m]) => n + m.length, 0);
  return html`<div class="error" role="alert" id="form-errors"><p>${count === 1 ? 'One thing to fix' : `${count} things to fix`}:</p><ul>${entries.map(
    ([field, messages]) => html`<li><a href="#${field}">${EMPLOYEE_LABELS[field] ?? field}</a>: ${messages.join(' ')}</li>`,
  )}</ul></div>`;
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

function fieldError(errors: Record<string, string[]>, field: string): Html {
  const messages = errors[field];
  return messages ? html`<p class="field-error" id="${field}-error">${messages.join(' ')}</p>` : html``;
}

function input(
  field: string,
  values: Values,
  errors: Record<string, string[]>,
  options: { type?: string; hint?: string; required?: boolean; inputmode?: string } = {},
): Html {
  const bad = errors[field] !== undefined;
  return html`<label for="${field}">${EMPLOYEE_LABELS[field]}${options.hint ? html` <span class="hint">${options.hint}</span>` : ''}</label>
  ${fieldError(errors, field)}<input id="${field}" name="${field}" type="${options.type ?? 'text'}"${options.inputmode ? html` inputmode="${options.inputmode}"` : ''}${
    options.required ? html` required` : ''
  } value="${text(values[field])}"${bad ? html` aria-invalid="true" aria-describedby="${field}-error"` : ''}>`;
}

function choice(field: string, values: Values, errors: Record<string, string[]>, options: Option[], empty?: string): Html {
  const bad = errors[field] !== undefined;
  return html`<label for="${field}">${EMPLOYEE_LABELS[field]}</label>
  ${fieldError(errors, field)}<select id="${field}" name="${field}" class="wide"${bad ? html` aria-invalid="true" aria-describedby="${field}-error"` : ''}>${
    empty !== undefined ? html`<option value="">${empty}</option>` : ''
  }${options.map((o) => html`<option value="${o.code}"${text(values[field]) === o.code ? html` selected` : ''}>${o.name}</option>`)}</select>`;
}

export interface EmployeeFormOptions {
  session: SessionRow;
  action: string;
  values: Values;
  errors?: Record<string, string[]>;
  domains: string[];
  userTypes: string[];
  banks: readonly Option[];
  states: Option[];
  pfas: Option[];
  /** The answer of the Verify button, shown under the account number. */
  verified?: { accountName: string; bankName: string };
  submit: string;
  /** More inputs above the submit button (Add employee: how the employee starts). */
  extra?: Html;
}

export function employeeForm(o: EmployeeFormOptions): Html {
  const errors = o.errors ?? {};
  const names = (list: string[]) => list.map((name) => ({ code: name, name }));
  return html`${errorSummary(errors)}<form method="post" action="${o.action}" novalidate>
  ${csrfField(o.session.csrfToken)}
  <section class="card" aria-labelledby="person-heading"><h2 id="person-heading">Person</h2>
  ${input('first_name', o.values, errors, { required: true })}
  ${input('last_name', o.values, errors, { required: true })}
  ${input('personal_email', o.values, errors, { type: 'email', required: true, hint: 'The invitation to set a password goes here' })}
  ${choice('domain_name', o.values, errors, names(o.domains))}
  <p class="hint">The company e-mail is made from the names and this domain (first.last@domain).</p>
  ${choice('user_types', o.values, errors, names(o.userTypes))}
  ${input('title', o.values, errors)}
  ${input('department', o.values, errors)}
  ${input('start_date', o.values, errors, { type: 'date', required: true })}
  ${input('manager_email', o.values, errors, { type: 'email', hint: "Optional: the manager's company or personal e-mail" })}
  </section>
  <section class="card" aria-labelledby="pay-heading"><h2 id="pay-heading">Pay (per pay period, in naira)</h2>
  ${input('base_salary', o.values, errors, { inputmode: 'decimal', hint: 'For example 350000 or 350,000.00' })}
  ${input('allowances', o.values, errors, { inputmode: 'decimal', hint: 'Housing, transport and other allowances together' })}
  </section>
  <section class="card" aria-labelledby="bank-heading"><h2 id="bank-heading">Bank account</h2>
  ${choice('bank_code', o.values, errors, [...o.banks], 'No bank account yet')}
  ${input('account_number', o.values, errors, { inputmode: 'numeric', hint: '10-digit NUBAN; its check digit is checked against the bank' })}
  ${
    o.verified
      ? html`<p class="notice" role="status" id="account-verified">Account name at ${o.verified.bankName}: <strong>${o.verified.accountName}</strong></p>`
      : ''
  }
  <button type="submit" name="intent" value="verify" class="secondary">Verify account</button>
  <p class="hint">Verify asks the bank whose account this is; nothing is saved. Saving verifies it again and records the name.</p>
  </section>
  <section class="card" aria-labelledby="statutory-heading"><h2 id="statutory-heading">Statutory details</h2>
  <p class="muted">Used for PAYE, pension and NHF. Leave a box empty when a detail is unknown.</p>
  ${statutoryInputs(o.values, o.states, o.pfas)}
  </section>
  ${o.extra ?? ''}
  <button type="submit" name="intent" value="save">${o.submit}</button>
</form>`;
}

/** Add employee's choice of how the employee starts (above the submit button). */
export function startAsFieldset(values: Values): Html {
  const startAs = String(values.start_as ?? 'active');
  return html`<fieldset><legend>When the employee is added</legend><div class="checks">
  <label for="start_as-active"><input type="radio" id="start_as-active" name="start_as" value="active"${startAs === 'active' ? html` checked` : ''}> Active at once (paid from the start date)</label>
  <label for="start_as-invited"><input type="radio" id="start_as-invited" name="start_as" value="invited"${startAs === 'invited' ? html` checked` : ''}> Invited: active once they set a password through the e-mailed link</label>
  <label for="notify"><input type="checkbox" id="notify" name="notify" value="true"${values.notify === false ? '' : html` checked`}> Send them the welcome or invitation e-mail</label>
</div></fieldset>`;
}

/** Edit employee's lines above the form: the links back, who it is, and the bank account on record. */
export function editHeader(id: number, user: Values, name: string): Html {
  const verifiedLine = user.account_name
    ? html`<p class="muted">Account on record: ${String(user.account_name)}${user.bank_account_verified_at ? ' (verified)' : ''}.</p>`
    : '';
  return html`<p><a href="/console/employees">← Employees</a> · <a href="/console/employees/${id}/statutory">Statutory details and employment</a></p>
<p>${name} · employee number <strong>${String(user.employee_id)}</strong> · ${String(user.email)}</p>${verifiedLine}`;
}
