// Settings, the rendering: the vocabulary lists (e-mail domains, user types, roles, redirect
// domains) and the payroll contribution settings form, each field with what it means for a paystub.
import type { CompanyProfile } from '../modules/companies/index.js';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { type Html, html } from './html.view.js';
import { csrfField } from './layout.view.js';

type Kind = 'domains' | 'user-types' | 'roles' | 'redirect-domains';

const LISTS: { kind: Kind; title: string; label: string; hint: string; key: keyof Omit<CompanyProfile, 'company'> }[] = [
  {
    kind: 'domains',
    title: 'E-mail domains',
    label: 'New e-mail domain',
    hint: 'Company e-mails of employees are firstname.lastname@domain (for example staff.acme.ng).',
    key: 'domains',
  },
  {
    kind: 'user-types',
    title: 'User types',
    label: 'New user type',
    hint: 'Kinds of employment, such as Full-time or Contract; custom contributions can target them.',
    key: 'userTypes',
  },
  { kind: 'roles', title: 'Roles', label: 'New role', hint: 'super-admin and admin may sign in to this console.', key: 'roles' },
  {
    kind: 'redirect-domains',
    title: 'Redirect domains for wallet top-ups',
    label: 'New redirect domain',
    hint: 'After paying, the payer is sent back to a redirect URL; only these hosts are accepted.',
    key: 'redirectDomains',
  },
];

/** Setting field → label and explanation (docs/payroll.md, "The engine"). */
const PERCENT_FIELDS: { field: string; label: string; hint: string; enabledBy?: string }[] = [
  {
    field: 'basic_percentage',
    label: 'Basic salary (% of taxable income)',
    hint: 'Share of each paystub’s taxable income that is basic salary; NHF and NHIS are computed on it.',
  },
  {
    field: 'housing_percentage',
    label: 'Housing allowance (%)',
    hint: 'Share that is housing allowance; with basic and transport it forms the pension base.',
  },
  {
    field: 'transport_percentage',
    label: 'Transport allowance (%)',
    hint: 'Share that is transport allowance. Basic + housing + transport may not exceed 100.',
  },
  {
    field: 'employee_pension_rate',
    label: 'Employee pension rate (%)',
    hint: 'Pension Reform Act 2014: at least 8% of basic + housing + transport, deducted from pay.',
    enabledBy: 'pension_enabled',
  },
  {
    field: 'employer_pension_rate',
    label: 'Employer pension rate (%)',
    hint: 'At least 10%, paid by the company on top of pay.',
    enabledBy: 'pension_enabled',
  },
  {
    field: 'nhf_rate',
    label: 'National Housing Fund rate (%)',
    hint: 'Usually 2.5% of basic salary, deducted from pay.',
    enabledBy: 'nhf_enabled',
  },
  {
    field: 'nhis_employee_rate',
    label: 'Health insurance, employee rate (%)',
    hint: 'NHIA contribution of the employee, percent of basic salary.',
    enabledBy: 'nhis_enabled',
  },
  {
    field: 'nhis_employer_rate',
    label: 'Health insurance, employer rate (%)',
    hint: 'NHIA contribution of the company, percent of basic salary.',
    enabledBy: 'nhis_enabled',
  },
];
const SWITCHES: { field: string; label: string; hint: string }[] = [
  { field: 'pension_enabled', label: 'Deduct pension', hint: 'Contributory pension for employees (Pension Reform Act 2014).' },
  { field: 'nhf_enabled', label: 'Deduct National Housing Fund', hint: 'NHF contribution from basic salary.' },
  { field: 'nhis_enabled', label: 'Deduct health insurance (NHIA)', hint: 'Off unless the company runs a health insurance scheme.' },
];
/** Settings chosen from a list (docs/payroll.md, "The engine", docs/payroll.md, docs/compliance.md). */
const CHOICES: { field: string; label: string; hint: string; options: [string, string][] }[] = [
  {
    field: 'tax_regime',
    label: 'Income tax regime',
    hint: 'Tax is computed on annual figures and withheld per pay period.',
    options: [
      ['auto', 'Automatic: PITA for pay periods ending before 1 Jan 2026, Nigeria Tax Act 2025 from then'],
      ['pita', 'Personal Income Tax Act (Finance Act 2020 basis, with CRA and minimum tax)'],
      ['nta2025', 'Nigeria Tax Act 2025 (0% on the first ₦800,000 a year, rent relief)'],
      ['none', 'No income tax (for example, tax handled elsewhere)'],
    ],
  },
  {
    field: 'tax_method',
    label: 'Tax withholding method',
    hint: 'Cumulative trues each paystub up with the year to date, so a mid-year joiner or a bonus is taxed on the year.',
    options: [
      ['annualised', 'Annualised: each pay period’s tax is the annual tax on that period’s pay, divided by the periods'],
      ['cumulative', 'Cumulative: tax on the year to date minus the tax already withheld this year'],
    ],
  },
  {
    field: 'nsitf_base',
    label: 'NSITF base',
    hint: 'The pay the employer’s 1% NSITF contribution is computed on, in the monthly remittance schedule.',
    options: [
      ['gross', 'Gross pay'],
      ['basic_housing_transport', 'Basic, housing and transport'],
    ],
  },
];

/** Every field of the payroll settings form, in the form's order. */
export const SETTING_FIELDS = [...CHOICES.map((c) => c.field), ...SWITCHES.map((s) => s.field), ...PERCENT_FIELDS.map((f) => f.field)];

function vocabularySection(session: SessionRow, profile: CompanyProfile, list: (typeof LISTS)[number]): Html {
  const values = profile[list.key];
  const id = `add-${list.kind}`;
  return html`<section class="card" aria-labelledby="${list.kind}-heading">
  <h2 id="${list.kind}-heading">${list.title}</h2>
  <p class="muted">${list.hint}</p>
  ${values.length === 0 ? html`<p>None yet.</p>` : ''}
  <ul class="list-edit">${values.map((value) => {
    const primary = list.kind === 'domains' && value === profile.company.domain;
    return html`<li><span>${value}${primary ? html` <span class="badge info">primary</span>` : ''}</span>${
      primary
        ? ''
        : html`<form method="post" action="/console/settings/vocabulary/remove" class="inline-form" data-confirm="Remove ${value}?">
      ${csrfField(session.csrfToken)}<input type="hidden" name="kind" value="${list.kind}"><input type="hidden" name="value" value="${value}">
      <button type="submit" class="secondary small" aria-label="Remove ${value}">Remove</button></form>`
    }</li>`;
  })}</ul>
  <form method="post" action="/console/settings/vocabulary/add">
    ${csrfField(session.csrfToken)}<input type="hidden" name="kind" value="${list.kind}">
    <label for="${id}">${list.label}</label>
    <input id="${id}" name="value" type="text" required maxlength="253">
    <button type="submit">Add</button>
  </form>
</section>`;
}

export function payrollSection(session: SessionRow, settings: Record<string, unknown>): Html {
  const value = (field: string) => String(settings[field] ?? '');
  return html`<section class="card" aria-labelledby="payroll-heading">
  <h2 id="payroll-heading">Payroll contribution settings</h2>
  <p class="muted">How each paystub is computed from its taxable income. Percentages accept up to 4 decimal places.</p>
  <form method="post" action="/console/settings/payroll">
    ${csrfField(session.csrfToken)}
    ${CHOICES.map(
      (c) => html`<label for="${c.field}">${c.label} <span class="hint">${c.hint}</span></label>
    <select id="${c.field}" name="${c.field}" class="wide">${c.options.map(([v, label]) => html`<option value="${v}"${value(c.field) === v ? html` selected` : ''}>${label}</option>`)}</select>`,
    )}
    ${SWITCHES.map(
      (s) => html`<fieldset><legend>${s.label}</legend><span class="hint">${s.hint}</span><div class="checks">
      <label for="${s.field}-yes"><input type="radio" id="${s.field}-yes" name="${s.field}" value="true"${value(s.field) === 'true' ? html` checked` : ''}> Yes</label>
      <label for="${s.field}-no"><input type="radio" id="${s.field}-no" name="${s.field}" value="false"${value(s.field) === 'false' ? html` checked` : ''}> No</label></div></fieldset>`,
    )}
    ${PERCENT_FIELDS.map(
      (f) => html`<label for="${f.field}">${f.label} <span class="hint">${f.hint}</span></label>
    <input id="${f.field}" name="${f.field}" type="text" inputmode="decimal" value="${value(f.field)}" required>`,
    )}
    <button type="submit">Save payroll settings</button>
  </form>
</section>`;
}

/** The vocabulary lists, side by side. */
export function vocabularySections(session: SessionRow, profile: CompanyProfile): Html {
  return html`<div class="grid">${LISTS.map((list) => vocabularySection(session, profile, list))}</div>`;
}
