// Input rules of C2 and C4. Every field is checked and every problem reported at once (a client
// fixing a form wants all messages, not one per round trip); uniqueness is checked by the service.
import { isEmail } from '../../platform/email.js';
import { addFieldError, type FieldErrors } from '../../platform/errors.js';
import { fieldLabel, rejectUnknownFields } from '../../platform/field-reader.js';
import { COMPANY_STATUTORY_FIELDS, type CompanyStatutoryValues, readCompanyStatutory } from './companies.statutory.service.js';
import { type RunApproval, readRunApproval } from './company-run-approval.service.js';

export const PAYMENT_FREQUENCIES = ['weekly', 'bi-weekly', 'monthly'] as const;

const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const CODE = /^[A-Z0-9]{2,20}$/;

const label = fieldLabel;

/** Lower-case ASCII letters and digits of a name part (accents folded: "Ọlá" → "ola"). */
export function emailPart(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

type Body = Record<string, unknown>;

const CREATE_FIELDS = [
  'name',
  'address',
  'phone',
  'registration_id',
  'first_name',
  'last_name',
  'personal_email',
  'title',
  'domain_name',
  'email_template',
  'payment_frequency',
  'run_approval',
  ...COMPANY_STATUTORY_FIELDS,
];
const UPDATE_FIELDS = [
  ...['name', 'address', 'phone', 'registration_id', 'email_template', 'code', 'domain', 'payment_frequency', 'run_approval'],
  ...COMPANY_STATUTORY_FIELDS,
];

function text(body: Body, field: string): string | undefined {
  const value = body[field];
  return typeof value === 'string' ? value.trim() : undefined;
}

function required(body: Body, field: string, errors: FieldErrors): string | undefined {
  const value = text(body, field);
  if (!value) {
    addFieldError(errors, field, `The ${label(field)} field is required.`);
    return undefined;
  }
  return value;
}

/** Optional nullable text: undefined = not given, null = cleared ("" counts as cleared). */
function optional(body: Body, field: string): string | null | undefined {
  if (!(field in body) || body[field] === undefined) return undefined;
  const value = text(body, field);
  return value ? value : null;
}

function checkFrequency(value: string | undefined, field: string, errors: FieldErrors) {
  if (value !== undefined && !(PAYMENT_FREQUENCIES as readonly string[]).includes(value)) {
    addFieldError(errors, field, `The selected ${label(field)} is invalid.`);
  }
}

function checkDomain(value: string | undefined, field: string, errors: FieldErrors): string | undefined {
  if (value === undefined) return undefined;
  const domain = value.toLowerCase();
  if (!HOSTNAME.test(domain)) {
    addFieldError(errors, field, `The ${label(field)} field must be a valid domain name.`);
    return undefined;
  }
  return domain;
}

export interface CreateCompanyInput {
  name: string;
  address: string | null;
  phone: string | null;
  registrationId: string | null;
  firstName: string;
  lastName: string;
  personalEmail: string;
  title: string;
  domain: string;
  emailTemplate: string;
  paymentFrequency: string;
  emailLocal: string;
  /** Who approves the child's payroll runs (company-run-approval.service.ts); default `person`. */
  runApproval: RunApproval;
  /** companies.statutory.service.ts: sector and registrations, written after the company is set up. */
  statutory: CompanyStatutoryValues;
}

/** C2: returns the normalized input and the format errors (uniqueness comes later). */
export function validateCreate(body: Body): { input?: CreateCompanyInput; errors: FieldErrors } {
  const errors: FieldErrors = {};
  rejectUnknownFields(body, CREATE_FIELDS, errors);
  const name = required(body, 'name', errors);
  const firstName = required(body, 'first_name', errors);
  const lastName = required(body, 'last_name', errors);
  let personalEmail = required(body, 'personal_email', errors);
  const title = required(body, 'title', errors);
  const domainText = required(body, 'domain_name', errors);
  const emailTemplate = required(body, 'email_template', errors);
  const paymentFrequency = required(body, 'payment_frequency', errors);
  if (personalEmail !== undefined) {
    personalEmail = personalEmail.toLowerCase();
    if (!isEmail(personalEmail)) {
      addFieldError(errors, 'personal_email', 'The personal email field must be a valid email address.');
      personalEmail = undefined;
    }
  }
  const domain = checkDomain(domainText, 'domain_name', errors);
  checkFrequency(paymentFrequency, 'payment_frequency', errors);
  const statutory = readCompanyStatutory(body, errors);
  const runApproval = readRunApproval(body, errors) ?? 'person';
  // The super admin's company e-mail is derived from the names, so each needs a letter or digit.
  if (firstName !== undefined && !emailPart(firstName))
    addFieldError(errors, 'first_name', 'The first name field must contain a letter or digit.');
  if (lastName !== undefined && !emailPart(lastName))
    addFieldError(errors, 'last_name', 'The last name field must contain a letter or digit.');
  if (Object.keys(errors).length > 0) return { errors };
  return {
    errors,
    input: {
      name: name as string,
      address: optional(body, 'address') ?? null,
      phone: optional(body, 'phone') ?? null,
      registrationId: optional(body, 'registration_id') ?? null,
      firstName: firstName as string,
      lastName: lastName as string,
      personalEmail: personalEmail as string,
      title: title as string,
      domain: domain as string,
      emailTemplate: emailTemplate as string,
      paymentFrequency: paymentFrequency as string,
      emailLocal: `${emailPart(firstName as string)}.${emailPart(lastName as string)}`,
      runApproval,
      statutory,
    },
  };
}

/** Column values for companiesRepo.update, the statutory ones included (companies.statutory.service.ts). */
export interface UpdateCompanyInput extends CompanyStatutoryValues {
  name?: string;
  address?: string | null;
  phone?: string | null;
  registrationId?: string | null;
  emailTemplate?: string;
  code?: string;
  domain?: string;
  paymentFrequency?: string;
  runApproval?: RunApproval;
}

/** C4: every field optional; a field that is given must be valid (name, template, code, domain not blank). */
export function validateUpdate(body: Body): { input: UpdateCompanyInput; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const input: UpdateCompanyInput = {};
  rejectUnknownFields(body, UPDATE_FIELDS, errors);
  for (const [field, key] of [
    ['name', 'name'],
    ['email_template', 'emailTemplate'],
    ['code', 'code'],
    ['domain', 'domain'],
    ['payment_frequency', 'paymentFrequency'],
  ] as const) {
    if (body[field] === undefined) continue;
    const value = text(body, field);
    if (!value) addFieldError(errors, field, `The ${label(field)} field must not be empty.`);
    else input[key] = value;
  }
  for (const [field, key] of [
    ['address', 'address'],
    ['phone', 'phone'],
    ['registration_id', 'registrationId'],
  ] as const) {
    const value = optional(body, field);
    if (value !== undefined) input[key] = value;
  }
  if (input.code !== undefined) {
    input.code = input.code.toUpperCase();
    if (!CODE.test(input.code)) addFieldError(errors, 'code', 'The code field must be 2 to 20 letters or digits.');
  }
  if (input.domain !== undefined) input.domain = checkDomain(input.domain, 'domain', errors);
  checkFrequency(input.paymentFrequency, 'payment_frequency', errors);
  const runApproval = readRunApproval(body, errors);
  if (runApproval !== undefined) input.runApproval = runApproval;
  Object.assign(input, readCompanyStatutory(body, errors));
  return { input, errors };
}
