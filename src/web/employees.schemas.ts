// The TypeBox schemas of the Add employee and Edit employee forms (employees.routes.ts and
// employees.edit.routes.ts), with the form's fields: person, pay, bank account and statutory details.
import { Type } from 'typebox';
import { EMPLOYEE_FORM_FIELDS } from './statutory.routes.js';

export const PERSON_FIELDS = [
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
export const PAY_FIELDS = ['base_salary', 'allowances'];
const FORM_FIELDS = [...PERSON_FIELDS, ...PAY_FIELDS, 'bank_code', 'account_number', ...EMPLOYEE_FORM_FIELDS];

export const FormBody = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  intent: Type.Optional(Type.String({ maxLength: 10 })),
  start_as: Type.Optional(Type.String({ maxLength: 10 })),
  notify: Type.Optional(Type.String({ maxLength: 5 })),
  ...Object.fromEntries(FORM_FIELDS.map((f) => [f, Type.Optional(Type.String({ maxLength: f === 'pension_exempt_reason' ? 1000 : 320 }))])),
});

export const Params = Type.Object({ id: Type.String({ maxLength: 20 }) });
