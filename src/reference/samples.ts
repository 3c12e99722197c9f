// Example values for the reference (docs/api-reference.md): a response example is built from the
// operation's own schema, field by field, with the value below for a field of that name (demo-like
// Nigerian data, money as the API formats it: naira text with two decimals, or a JSON number where
// the schema says number), or a plain value of the field's type. The examples test checks every
// example against its schema, so a value that does not fit its field fails there.

type Json = unknown;
export type SchemaNode = Record<string, unknown>;

/** One value per field name, as a demo company's data would show it. */
export const FIELD_VALUES: Record<string, Json> = {
  id: 1042,
  company_id: 12,
  user_id: 1042,
  manager_id: 1007,
  domain_id: 3,
  employee_id: 'EMP-0042',
  unique_id: 'b1c2d3e4-5f60-4a7b-8c9d-0e1f2a3b4c5d',
  first_name: 'Chiamaka',
  last_name: 'Okafor',
  email: 'chiamaka.okafor@adebayo-logistics.ng',
  personal_email: 'chiamaka.okafor@example.com',
  user_email: 'chiamaka.okafor@adebayo-logistics.ng',
  manager_email: 'tunde.adeyemi@adebayo-logistics.ng',
  customer_email: 'finance@adebayo-logistics.ng',
  finance_approver_email: 'ngozi.eze@adebayo-logistics.ng',
  approver_email: 'ngozi.eze@adebayo-logistics.ng',
  created_by_email: 'tunde.adeyemi@adebayo-logistics.ng',
  approved_by_email: 'ngozi.eze@adebayo-logistics.ng',
  approved_by_manager_email: 'tunde.adeyemi@adebayo-logistics.ng',
  relationship_manager_email: null,
  user_types: 'Full-time',
  title: 'Logistics Coordinator',
  department: 'Operations',
  office_location: 'Ikeja, Lagos',
  address: '14 Adeola Odeku Street, Victoria Island, Lagos',
  phone: '+2348031234567',
  level: null,
  base_salary: '350000.00',
  allowances: '75000.00',
  annual_rent_paid: '1800000.00',
  life_assurance_premium: null,
  nin: '12345678901',
  tax_id: '23456789-0001',
  state_of_residence: 'LA',
  paye_state: 'LA',
  pension_exempt_reason: null,
  rsa_pin: 'PEN100234567890',
  pfa_code: 'STANBIC',
  nhf_number: 'NHF/LA/004512',
  gender: 'female',
  payment_frequency: 'monthly',
  start_date: '2024-03-01',
  // A User in examples is employed: no exit recorded (docs/users.md, "Leavers").
  exit_date: null,
  exit_reason: null,
  bank_name: 'Guaranty Trust Bank',
  bank_code: '058',
  account_number: '2119371247',
  account_name: 'CHIAMAKA OKAFOR',
  account_last4: '1247',
  manager: 'Tunde Adeyemi',
  roles: ['user'],
  name: 'Adebayo Logistics Ltd',
  code: 'ADEBAYO',
  domain: 'adebayo-logistics.ng',
  domain_name: 'adebayo-logistics.ng',
  domains: ['adebayo-logistics.ng'],
  sector: 'private',
  registration_id: 'RC1234567',
  rc_number: 'RC1234567',
  pencom_employer_code: 'PR0000123456',
  nhf_employer_number: 'NHF-EMP-00781',
  nsitf_number: 'NSITF-LA-55012',
  itf_number: 'ITF-LA-20931',
  email_template: 'default',
  plan: 'standard',
  description: 'Outpatient consultation at Reddington Hospital',
  service_date: '2025-05-20',
  provider_name: 'Reddington Hospital',
  total_amount: '45000.00',
  amount_requested: '45000.00',
  amount_paid: '0.00',
  balance: '1250000.00',
  category_name: 'Medical',
  subcategory_name: 'Consultation',
  payment_method: 'self',
  transaction_id: 'PR-20250528-7F3K9Q',
  transaction_reference: 'wallet_8d1f0c3a5b7e4d29',
  transactionReference: 'wallet_8d1f0c3a5b7e4d29',
  reference: 'wallet_8d1f0c3a5b7e4d29',
  payment_reference: 'payroll_PR-20250528-7F3K9Q_1042',
  currency: 'NGN',
  amount: '500000.00',
  pay_period_start: '2025-05-01',
  pay_period_end: '2025-05-31',
  payment_date: '2025-05-28',
  taxable_income: 425000,
  gross_pay: 425000,
  net_pay: 351236.5,
  tax_withheld: 39413.5,
  pension_contribution: 30400,
  employee_pension_contribution: 30400,
  employer_pension_contribution: 38000,
  nhf_contribution: 0,
  nhis_contribution: 0,
  other_deductions: 3950,
  other_allowances: 0,
  reimbursements: 0,
  employer_cost: 463000,
  employees: 24,
  url: 'https://hooks.adebayo-logistics.ng/payroll',
  events: ['payroll_run.paid', 'paystub.paid'],
  event_type: 'payroll_run.paid',
  event_id: 'evt_2fY8kQ1nZ0',
  secret: 'whsec_MfKQ9r8GkjHoI3G1ZR5vXwq5z3c2Ns5z',
  token: 'pk_3q2V8s0kZ1xY7mNcR4tB9wE6uH5jL2aP0dF8gK1hQ3s',
  scopes: ['all'],
  state: 'LA',
  authority: 'Lagos State Internal Revenue Service',
  month: '2025-05',
  year: 2025,
  created_at: '2025-05-02T09:15:00.000Z',
  updated_at: '2025-05-02T09:15:00.000Z',
  timestamp: '2025-05-28T10:00:00.000Z',
  message: 'User created successfully',
};

/** Values of well-known string formats. */
const FORMAT_VALUES: Record<string, string> = {
  date: '2025-05-31',
  'date-time': '2025-05-28T10:00:00.000Z',
  email: 'chiamaka.okafor@adebayo-logistics.ng',
  uri: 'https://hooks.adebayo-logistics.ng/payroll',
};

const MAX_DEPTH = 12;

function types(node: SchemaNode): string[] {
  return [node.type].flat().filter((type): type is string => typeof type === 'string');
}

/** The field's dictionary value made to fit the schema's type, or undefined when it cannot be. */
function fitTo(value: Json, node: SchemaNode): Json {
  const allowed = types(node);
  if (value === null) return allowed.includes('null') ? null : undefined;
  if (allowed.length === 0) return value;
  if (typeof value === 'string') {
    if (allowed.includes('string')) return value;
    if ((allowed.includes('number') || allowed.includes('integer')) && /^-?\d+(\.\d+)?$/.test(value)) {
      const number = Number(value);
      return allowed.includes('number') || Number.isInteger(number) ? number : undefined;
    }
    return undefined;
  }
  if (typeof value === 'number') {
    if (allowed.includes('number') || (allowed.includes('integer') && Number.isInteger(value))) return value;
    if (allowed.includes('string')) return Number.isInteger(value) ? String(value) : value.toFixed(2);
    return undefined;
  }
  if (Array.isArray(value)) return allowed.includes('array') ? value : undefined;
  if (typeof value === 'boolean') return allowed.includes('boolean') ? value : undefined;
  return allowed.includes('object') ? value : undefined;
}

/** An example value for `node` (a schema of the final document; `$ref`s resolve through `resolve`). */
export function sampleOf(node: unknown, resolve: (ref: string) => unknown, field?: string, depth = 0): Json {
  if (!node || typeof node !== 'object' || depth > MAX_DEPTH) return null;
  const schema = node as SchemaNode;
  if (typeof schema.$ref === 'string') return sampleOf(resolve(schema.$ref), resolve, field, depth + 1);
  if ('example' in schema) return schema.example;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const choices = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(choices)) {
    // The first choice that is not null (an example shows a value), unless the field's value is null.
    const known = field !== undefined ? FIELD_VALUES[field] : undefined;
    if (known === null && choices.some((choice) => (choice as SchemaNode)?.type === 'null')) return null;
    const pick = choices.find((choice) => (choice as SchemaNode)?.type !== 'null') ?? choices[0];
    return sampleOf(pick, resolve, field, depth + 1);
  }
  if (field !== undefined && field in FIELD_VALUES) {
    const fitted = fitTo(FIELD_VALUES[field], schema);
    if (fitted !== undefined) return fitted;
  }
  const allowed = types(schema);
  if (allowed.includes('object') || schema.properties) {
    const out: Record<string, Json> = {};
    for (const [key, inner] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) {
      out[key] = sampleOf(inner, resolve, key, depth + 1);
    }
    return out;
  }
  if (allowed.includes('array')) return [sampleOf(schema.items, resolve, field, depth + 1)];
  if (allowed.includes('string')) {
    if (typeof schema.format === 'string' && schema.format in FORMAT_VALUES) return FORMAT_VALUES[schema.format];
    if (field?.endsWith('_at')) return FORMAT_VALUES['date-time'];
    if (field?.endsWith('_date')) return FORMAT_VALUES.date;
    if (field?.endsWith('email')) return FORMAT_VALUES.email;
    return field ? field.replace(/_/g, ' ') : 'text';
  }
  if (allowed.includes('integer')) return typeof schema.minimum === 'number' && schema.minimum > 1 ? schema.minimum : 1;
  if (allowed.includes('number')) return 0;
  if (allowed.includes('boolean')) return !!field?.startsWith('is_');
  if (allowed.includes('null')) return null;
  return field ? field.replace(/_/g, ' ') : 'value';
}
