// The statutory fields of a user (docs/statutory-data.md), in one table: how each is read from
// U3/U4 bodies and CSV rows, how it is compared, stored and shown. Everything else in the users
// feature handles them as one opaque group, `statutory`, so adding a field here adds it to U2-U4,
// U8/U9, the templates U12/U13 and the console at once.
//
// Null means unknown. In U3 and CSV rows a blank or absent value leaves the field unknown (create)
// or unchanged (update); in U4 JSON an explicit `null` clears a text or money field (booleans are
// never unknown: they default to false). Formats: docs/statutory-data.md.
import { Type } from 'typebox';
import { addFieldError, type FieldErrors } from '../../../platform/errors.js';
import { fieldLabel } from '../../../platform/field-reader.js';
import { isPfaCode, isStateCode } from '../../reference-data/index.js';
import type { UserRow } from '../users.repo.js';

type Kind = 'money' | 'bool' | 'nin' | 'taxId' | 'state' | 'rsaPin' | 'pfa' | 'nhfNumber' | 'gender' | 'reason';

interface StatutoryField {
  /** API field, CSV column and database column alike. */
  field: string;
  key: keyof UserRow;
  kind: Kind;
  /** The CSV template's header note (dropped when the file is read, like start_date's). */
  hint?: string;
  description: string;
}

export const STATUTORY_FIELDS: readonly StatutoryField[] = [
  { field: 'annual_rent_paid', key: 'annualRentPaid', kind: 'money', description: 'Rent paid a year, decimal (rent relief)' },
  {
    field: 'life_assurance_premium',
    key: 'lifeAssurancePremium',
    kind: 'money',
    description: 'Life assurance premium paid a year, decimal (relief)',
  },
  { field: 'nin', key: 'nin', kind: 'nin', hint: '11 digits', description: 'National Identification Number: 11 digits' },
  {
    field: 'tax_id',
    key: 'taxId',
    kind: 'taxId',
    description: 'Tax ID: the 11-digit NIN (the individual tax ID from 2026), or a legacy TIN: 10 digits or NNNNNNNN-NNNN',
  },
  {
    field: 'state_of_residence',
    key: 'stateOfResidence',
    kind: 'state',
    hint: 'code of GET /api/states',
    description: 'State code of GET /api/states (LA, FC, KN, ...): decides the PAYE authority',
  },
  {
    field: 'rsa_pin',
    key: 'rsaPin',
    kind: 'rsaPin',
    hint: 'PEN + 12 digits',
    description: 'Retirement Savings Account PIN: PEN and 12 digits',
  },
  {
    field: 'pfa_code',
    key: 'pfaCode',
    kind: 'pfa',
    hint: 'code of GET /api/pfas',
    description: 'Pension Fund Administrator: a code of GET /api/pfas',
  },
  {
    field: 'nhf_number',
    key: 'nhfNumber',
    kind: 'nhfNumber',
    description: 'National Housing Fund number: letters, digits, / and -, up to 20',
  },
  {
    field: 'nhf_opt_in',
    key: 'nhfOptIn',
    kind: 'bool',
    hint: 'true/false',
    description: 'Contributes to the NHF (private sector: voluntary)',
  },
  { field: 'gender', key: 'gender', kind: 'gender', hint: 'male/female', description: 'male or female; null when not recorded' },
  { field: 'is_expatriate', key: 'isExpatriate', kind: 'bool', hint: 'true/false', description: 'Not a Nigerian citizen (no NHF)' },
  {
    field: 'pension_exempt',
    key: 'pensionExempt',
    kind: 'bool',
    hint: 'true/false',
    description: 'Exempt from the contributory pension scheme (Pension Reform Act 2014): no employee or employer pension',
  },
  {
    field: 'pension_exempt_reason',
    key: 'pensionExemptReason',
    kind: 'reason',
    description:
      'Why the employee is exempt from pension, up to 200 characters: required when pension_exempt is true, kept only while it is',
  },
];

export type StatutoryValues = Partial<Record<string, string | boolean | null>>;

/** The CSV columns, after the existing ones, with their notes: `nin (11 digits)`. */
export const STATUTORY_CSV_HEADER = STATUTORY_FIELDS.map(({ field, hint }) => (hint ? `${field} (${hint})` : field));
/** CSV column → request field (the same names). */
export const STATUTORY_CSV_COLUMNS: Record<string, string> = Object.fromEntries(STATUTORY_FIELDS.map(({ field }) => [field, field]));

export const NIN_FORMAT = /^\d{11}$/;
export const RSA_PIN_FORMAT = /^PEN\d{12}$/;
const NHF_NUMBER_FORMAT = /^[A-Z0-9/-]{1,20}$/;
/**
 * docs/statutory-data.md, "tax_id": from 2026 an individual's tax ID is their NIN (11 digits, Nigeria
 * Tax Administration Act 2025; not re-checked offline); a legacy TIN is 10 digits or 8 digits, a
 * hyphen and 4 digits. Only the format is checked: no register is consulted.
 */
export const TAX_ID_FORMAT = /^(?:\d{11}|\d{10}|\d{8}-\d{4})$/;
const MAX_TAX_ID = 20;
const MAX_REASON = 200;
export const PENSION_REASON_REQUIRED = 'The pension exempt reason field is required when pension exempt is true.';

/** What readStatutory needs of the users' field reader (users.fields.validation.ts). */
export interface StatutoryReader {
  readonly errors: FieldErrors;
  money(field: string): string | undefined;
  bool(field: string): boolean | undefined;
  text(field: string, required: boolean, max?: number): string | undefined;
}

const compact = (text: string) => text.replace(/\s+/g, '').toUpperCase();

function readOne(r: StatutoryReader, { field, kind }: StatutoryField): string | boolean | undefined {
  const fail = (message: string) => {
    addFieldError(r.errors, field, message);
    return undefined;
  };
  const label = fieldLabel(field);
  if (kind === 'money') return r.money(field);
  if (kind === 'bool') return r.bool(field);
  const text = r.text(field, false, kind === 'taxId' ? MAX_TAX_ID : kind === 'reason' ? MAX_REASON : 255);
  if (text === undefined) return undefined;
  switch (kind) {
    case 'nin':
      return NIN_FORMAT.test(text.replace(/\s+/g, '')) ? text.replace(/\s+/g, '') : fail(`The ${label} field must be 11 digits.`);
    case 'taxId':
      return TAX_ID_FORMAT.test(text.replace(/\s+/g, ''))
        ? text.replace(/\s+/g, '')
        : fail(`The ${label} field must be an 11-digit NIN or a TIN of 10 digits or NNNNNNNN-NNNN.`);
    case 'reason':
      return text;
    case 'state':
      return isStateCode(text.toUpperCase())
        ? text.toUpperCase()
        : fail(`The selected ${label} is invalid: use a state code of GET /api/states (e.g. LA, FC, KN).`);
    case 'rsaPin':
      return RSA_PIN_FORMAT.test(compact(text)) ? compact(text) : fail(`The ${label} field must be PEN followed by 12 digits.`);
    case 'pfa':
      return isPfaCode(text.toUpperCase()) ? text.toUpperCase() : fail(`The selected ${label} is invalid: use a code of GET /api/pfas.`);
    case 'nhfNumber':
      return NHF_NUMBER_FORMAT.test(compact(text)) ? compact(text) : fail(`The ${label} field must be at most 20 letters, digits, / or -.`);
    case 'gender':
      return ['male', 'female'].includes(text.toLowerCase())
        ? text.toLowerCase()
        : fail(`The selected ${label} is invalid: use male or female.`);
  }
}

/**
 * Reads every statutory field of a U3/U4 body or CSV row; errors go into the reader's errors.
 * `nullClears`: U4 JSON, where `null` means "now unknown" (booleans excepted).
 */
export function readStatutory(r: StatutoryReader, record: Record<string, unknown>, nullClears: boolean): StatutoryValues {
  const values: StatutoryValues = {};
  for (const spec of STATUTORY_FIELDS) {
    if (nullClears && record[spec.field] === null && spec.kind !== 'bool') {
      values[spec.field] = null;
      continue;
    }
    const value = readOne(r, spec);
    if (value !== undefined) values[spec.field] = value;
  }
  return values;
}

/**
 * pension_exempt_reason is required while pension_exempt is true and kept only while it is: for the
 * values of a create (no `stored`) or of an update of the stored user, an error when the result would
 * be exempt without a reason; when it would not be exempt, a reason given is dropped and a stored one
 * cleared (statutoryRepo also clears it whenever pension_exempt is written false).
 */
export function settlePensionExemption(
  values: StatutoryValues,
  errors: FieldErrors,
  stored?: { pensionExempt: boolean; pensionExemptReason: string | null },
): void {
  const exempt = 'pension_exempt' in values ? values.pension_exempt === true : stored?.pensionExempt === true;
  const reason = 'pension_exempt_reason' in values ? values.pension_exempt_reason : (stored?.pensionExemptReason ?? null);
  if (exempt) {
    // A reason refused already (too long) or an exemption that is not a boolean says enough.
    const refused = errors.pension_exempt_reason !== undefined || errors.pension_exempt !== undefined;
    if ((reason === null || reason === undefined) && !refused) addFieldError(errors, 'pension_exempt_reason', PENSION_REASON_REQUIRED);
    return;
  }
  if (stored?.pensionExemptReason != null) values.pension_exempt_reason = null;
  else delete values.pension_exempt_reason;
}

/** "1200000" and "1200000.00" are the same amount. */
function canonical(spec: StatutoryField, value: unknown): unknown {
  if (spec.kind !== 'money' || value === null || value === undefined) return value;
  const [whole, fraction = ''] = String(value).split('.');
  return `${BigInt(whole)}.${`${fraction}00`.slice(0, 2)}`;
}

/** The fields of `values` that differ from the stored user: what to write and the names changed. */
export function statutoryChanges(user: UserRow, values: StatutoryValues): { values: StatutoryValues; changed: string[] } {
  const out: StatutoryValues = {};
  const changed: string[] = [];
  for (const spec of STATUTORY_FIELDS) {
    if (!(spec.field in values)) continue;
    if (canonical(spec, values[spec.field]) === canonical(spec, user[spec.key])) continue;
    out[spec.field] = values[spec.field];
    changed.push(spec.field);
  }
  return { values: out, changed };
}

// Schema fragments. Text fields are `type: ['string', 'null']` (a list, not a union: with the
// app's type coercion a union would turn "" into null, a clear, before the reader sees it). Money
// and booleans carry no type: the reader takes numbers and strings, true/false/1/0, and reports
// every bad field at once in the fields' own words (a schema error would stop at the first).
const bodySchema = ({ kind, description }: StatutoryField) => {
  const text = `${description}; optional${kind === 'bool' ? ', default false' : ', null when unknown'}`;
  if (kind === 'money') return Type.Optional(Type.Unsafe<unknown>({ description: `${text} (number or string)` }));
  if (kind === 'bool') return Type.Optional(Type.Unsafe<unknown>({ description: `${text} (true/false, 1/0)` }));
  return Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], description: text }));
};

/** Request body properties of U3/U4 (spread into their schemas). */
export const StatutoryBodyProperties = Object.fromEntries(STATUTORY_FIELDS.map((spec) => [spec.field, bodySchema(spec)]));

/** Response properties of the User resource (spread into UserSchema). */
export const StatutoryUserProperties = Object.fromEntries(
  STATUTORY_FIELDS.map((spec) => [
    spec.field,
    spec.kind === 'bool' ? Type.Boolean() : Type.Unsafe<string | null>({ type: ['string', 'null'], description: spec.description }),
  ]),
);
