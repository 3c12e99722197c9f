// Request bodies of U3/U4/U10/U11 for OpenAPI and type checks. Required fields and formats are
// checked by users.fields.validation.ts / users.suspension.service.ts (shared with the CSV import), so every missing
// field is reported at once with the same messages as a CSV row.
import { Type } from 'typebox';
import { MoneyInput } from '../../platform/schemas.js';
import { BankCodeInput } from './bank/users.bank-fields.validation.js';
import { StatutoryBodyProperties } from './fields/users.statutory-fields.validation.js';

const Str = Type.Optional(Type.String());
const Money = Type.Optional(MoneyInput('decimal, at most 2 places'));
const CompanyId = Type.Optional(Type.Union([Type.Integer(), Type.String()]));

export const CreateBody = Type.Object({
  company_id: CompanyId,
  first_name: Type.Optional(Type.String({ description: 'required' })),
  last_name: Type.Optional(Type.String({ description: 'required' })),
  personal_email: Type.Optional(Type.String({ description: 'required' })),
  domain_name: Type.Optional(Type.String({ description: 'required; an e-mail domain of the company' })),
  user_types: Type.Optional(Type.String({ description: 'required; a user type of the company' })),
  title: Str,
  department: Str,
  office_location: Str,
  base_salary: Money,
  allowances: Money,
  start_date: Type.Optional(Type.String({ description: 'required, YYYY-MM-DD' })),
  manager_email: Str,
  bank_name: Str,
  account_number: Type.Optional(Type.String({ description: 'digits, leading zeros kept' })),
  bank_code: BankCodeInput,
  roles: Type.Optional(Type.Array(Type.String(), { description: 'default ["user"]' })),
  is_active: Type.Optional(Type.Boolean({ default: false })),
  notify: Type.Optional(Type.Boolean({ default: false })),
  ...StatutoryBodyProperties,
});

export const UpdateBody = Type.Object({
  company_id: CompanyId,
  first_name: Str,
  last_name: Str,
  domain_name: Str,
  user_types: Str,
  title: Str,
  department: Str,
  personal_email: Str,
  office_location: Str,
  manager_email: Str,
  bank_name: Str,
  account_number: Str,
  bank_code: BankCodeInput,
  base_salary: Money,
  allowances: Money,
  start_date: Str,
  password: Str,
  password_confirmation: Str,
  notify: Type.Optional(Type.Boolean()),
  ...StatutoryBodyProperties,
});

export const SuspendBody = Type.Object({
  company_id: CompanyId,
  suspension_duration_type: Type.Optional(Type.String({ enum: ['minutes', 'hours', 'date', 'indefinite'] })),
  suspension_duration_value: Type.Optional(Type.Integer()),
  suspension_end_at: Type.Optional(Type.String({ description: 'YYYY-MM-DD HH:mm:ss (UTC)' })),
  clear_roles: Type.Optional(Type.Boolean()),
  suspension_reason: Str,
});

export const UnsuspendBody = Type.Object({
  company_id: CompanyId,
  unsuspend_option: Type.Optional(Type.String({ description: 'immediately or future' })),
  new_unsuspension_time: Type.Optional(Type.String({ description: 'YYYY-MM-DD HH:mm:ss (UTC), for future' })),
});
