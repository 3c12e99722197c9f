// Statutory data in the console, the rendering: an employee's statutory inputs (also on the Add/Edit
// employee pages) with their labels, the employee's statutory details card, and the company's
// sector and registrations as a section of Settings.
import type { CompanyProfile } from '../modules/companies/index.js';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { type Html, html } from './html.view.js';
import { csrfField } from './layout.view.js';

export type Values = Record<string, unknown>;
export type Option = { code: string; name: string };

const TEXT_FIELDS = [
  ['nin', 'NIN', '11 digits'],
  ['tax_id', 'Tax ID (TIN)', 'State or federal taxpayer ID, up to 20 characters'],
  ['rsa_pin', 'RSA PIN', 'PEN followed by 12 digits'],
  ['nhf_number', 'NHF number', 'Letters, digits, / and -'],
  ['annual_rent_paid', 'Annual rent paid (₦)', 'For rent relief; a decimal amount'],
  ['life_assurance_premium', 'Life assurance premium a year (₦)', 'For life assurance relief; a decimal amount'],
] as const;
const BOOLEAN_FIELDS = [
  ['nhf_opt_in', 'Contributes to the NHF', 'Compulsory in the public sector; voluntary in the private sector'],
  ['is_expatriate', 'Expatriate', 'Not a Nigerian citizen: no NHF'],
  [
    'pension_exempt',
    'Exempt from pension',
    'Pension Reform Act 2014 exemptions (e.g. less than 3 months to retirement, covered by another scheme): no employee or employer pension',
  ],
] as const;
export const REASON_FIELD = 'pension_exempt_reason';
const REGISTRATIONS = [
  ['rc_number', 'CAC RC number', 'RC, BN or IT and up to 8 digits'],
  ['pencom_employer_code', 'PenCom employer code', ''],
  ['nhf_employer_number', 'NHF employer number', 'Federal Mortgage Bank of Nigeria'],
  ['nsitf_number', 'NSITF number', ''],
  ['itf_number', 'ITF number', ''],
] as const;
export const EMPLOYEE_FORM_FIELDS = [
  ...TEXT_FIELDS.map(([f]) => f),
  'state_of_residence',
  'pfa_code',
  'gender',
  ...BOOLEAN_FIELDS.map(([f]) => f),
  REASON_FIELD,
];
export const COMPANY_FORM_FIELDS = ['sector', ...REGISTRATIONS.map(([f]) => f), 'tax_ids'];

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

function select(field: string, label: string, options: Option[], value: unknown, empty: string): Html {
  return html`<label for="${field}">${label}</label>
  <select id="${field}" name="${field}" class="wide"><option value="">${empty}</option>${options.map(
    (o) => html`<option value="${o.code}"${text(value) === o.code ? html` selected` : ''}>${o.name} (${o.code})</option>`,
  )}</select>`;
}

function yesNo(field: string, label: string, hint: string, value: unknown): Html {
  const on = value === true || value === 'true';
  return html`<fieldset><legend>${label}</legend><span class="hint">${hint}</span><div class="checks">
  <label for="${field}-yes"><input type="radio" id="${field}-yes" name="${field}" value="true"${on ? html` checked` : ''}> Yes</label>
  <label for="${field}-no"><input type="radio" id="${field}-no" name="${field}" value="false"${on ? '' : html` checked`}> No</label></div></fieldset>`;
}

/** The statutory inputs of an employee form (this page and the console's Add/Edit employee pages). */
export function statutoryInputs(values: Values, states: Option[], pfas: Option[]): Html {
  return html`${select('state_of_residence', 'State of residence (PAYE authority)', states, values.state_of_residence, 'Unknown')}
    ${select('pfa_code', 'Pension Fund Administrator', pfas, values.pfa_code, 'Unknown')}
    ${select(
      'gender',
      'Gender',
      [
        { code: 'female', name: 'Female' },
        { code: 'male', name: 'Male' },
      ],
      values.gender,
      'Not recorded',
    )}
    ${TEXT_FIELDS.map(
      ([field, label, hint]) => html`<label for="${field}">${label} <span class="hint">${hint}</span></label>
    <input id="${field}" name="${field}" type="text" maxlength="40" value="${text(values[field])}">`,
    )}
    ${BOOLEAN_FIELDS.map(([field, label, hint]) => yesNo(field, label, hint, values[field]))}
    <label for="${REASON_FIELD}">Reason for the pension exemption <span class="hint">Required when exempt, up to 200 characters</span></label>
    <input id="${REASON_FIELD}" name="${REASON_FIELD}" type="text" maxlength="200" class="wide" value="${text(values[REASON_FIELD])}">`;
}

/** The labels of the statutory fields, by field key: what error messages name instead of the key. */
export const STATUTORY_LABELS: Record<string, string> = {
  state_of_residence: 'State of residence',
  pfa_code: 'Pension Fund Administrator',
  gender: 'Gender',
  ...Object.fromEntries([...TEXT_FIELDS, ...BOOLEAN_FIELDS].map(([field, label]) => [field, label])),
  [REASON_FIELD]: 'Reason for the pension exemption',
};

const taxIdLines = (taxIds: unknown) =>
  typeof taxIds === 'string'
    ? taxIds
    : Object.entries((taxIds ?? {}) as Record<string, string>)
        .map(([code, id]) => `${code}: ${id}`)
        .join('\n');

/** The Settings section: sector and registrations; `values` are the stored ones or what was typed. */
export function companyStatutorySection(session: SessionRow, values: Values): Html {
  return html`<section class="card" aria-labelledby="statutory-heading">
  <h2 id="statutory-heading">Statutory registrations</h2>
  <p class="muted">What remittance schedules carry for this employer. Empty a box to remove a number.</p>
  <form method="post" action="/console/settings/statutory">
    ${csrfField(session.csrfToken)}
    <label for="sector">Sector <span class="hint">NHF is compulsory in the public sector and voluntary in the private sector.</span></label>
    <select id="sector" name="sector" class="wide">${['private', 'public'].map(
      (s) => html`<option value="${s}"${text(values.sector) === s ? html` selected` : ''}>${s[0].toUpperCase()}${s.slice(1)}</option>`,
    )}</select>
    ${REGISTRATIONS.map(
      ([field, label, hint]) => html`<label for="${field}">${label}${hint ? html` <span class="hint">${hint}</span>` : ''}</label>
    <input id="${field}" name="${field}" type="text" maxlength="40" value="${text(values[field])}">`,
    )}
    <label for="tax_ids">Payer IDs at state tax authorities <span class="hint">One per line: state code, colon, payer ID (LA: 1234567).</span></label>
    <textarea id="tax_ids" name="tax_ids" rows="4" class="wide">${taxIdLines(values.tax_ids)}</textarea>
    <button type="submit">Save registrations</button>
  </form>
</section>`;
}

/** The stored values of the Settings section. */
export function companyStatutoryValues(profile: CompanyProfile): Values {
  const c = profile.company;
  return {
    sector: c.sector,
    rc_number: c.rcNumber,
    pencom_employer_code: c.pencomEmployerCode,
    nhf_employer_number: c.nhfEmployerNumber,
    nsitf_number: c.nsitfNumber,
    itf_number: c.itfNumber,
    tax_ids: c.taxIds,
  };
}

/** The employee's statutory details: the form, with `values` (the stored ones or what was typed). */
export function employeeStatutoryCard(
  session: SessionRow,
  id: number,
  user: Values,
  values: Values,
  states: Option[],
  pfas: Option[],
): Html {
  return html`<p><a href="/console/employees">← Employees</a></p>
<section class="card" aria-labelledby="statutory-heading">
  <h2 id="statutory-heading">Statutory details of ${text(user.first_name)} ${text(user.last_name)} (${text(user.employee_id)})</h2>
  <p class="muted">Used for PAYE, pension and NHF. Empty a box when a detail is unknown.</p>
  <form method="post" action="/console/employees/${id}/statutory">
    ${csrfField(session.csrfToken)}
    ${statutoryInputs(values, states, pfas)}
    <button type="submit">Save statutory details</button>
  </form>
</section>`;
}
