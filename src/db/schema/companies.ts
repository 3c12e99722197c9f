import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const companies = pgTable(
  'companies',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    code: text('code').notNull(),
    address: text('address'),
    phone: text('phone'),
    registrationId: text('registration_id'),
    emailTemplate: text('email_template'),
    paymentFrequency: text('payment_frequency').notNull().default('monthly'),
    createdBy: integer('created_by'),
    status: text('status').notNull().default('approved'),
    domain: text('domain').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    apiAccess: boolean('api_access').notNull().default(true),
    plan: text('plan').notNull().default('standard'),
    employeeSeq: integer('employee_seq').notNull().default(0),
    // 0082: the sector decides whether NHF is compulsory; the rest are the employer's registrations.
    sector: text('sector').notNull().default('private'),
    rcNumber: text('rc_number'),
    pencomEmployerCode: text('pencom_employer_code'),
    nhfEmployerNumber: text('nhf_employer_number'),
    nsitfNumber: text('nsitf_number'),
    itfNumber: text('itf_number'),
    taxIds: jsonb('tax_ids').$type<Record<string, string>>().notNull().default({}),
    // 0190: who approves payroll runs: a person in the console, or the API token (docs/payroll-runs.md, "Approval").
    runApproval: text('run_approval').$type<'person' | 'token'>().notNull().default('person'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('companies_code_key').on(t.code),
    uniqueIndex('companies_domain_key').on(t.domain),
    uniqueIndex('companies_registration_id_key').on(t.registrationId),
    index('companies_created_by_idx').on(t.createdBy),
  ],
);

/**
 * E-mail domains a company may give its employees (U3 `domain_name`), its primary domain included.
 * `company_domains_name_key` (lower(name)) makes every domain belong to one company at most.
 */
export const companyDomains = pgTable(
  'company_domains',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    name: text('name').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('company_domains_company_name_key').on(t.companyId, t.name),
    uniqueIndex('company_domains_name_key').on(sql`lower(${t.name})`),
  ],
);

export const userTypes = pgTable(
  'user_types',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    name: text('name').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('user_types_company_name_key').on(t.companyId, t.name)],
);

export const roles = pgTable(
  'roles',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    name: text('name').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('roles_company_name_key').on(t.companyId, t.name)],
);

/** Hosts a wallet top-up may redirect back to (W1 `redirect_url`). */
export const redirectDomains = pgTable(
  'redirect_domains',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    host: text('host').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('redirect_domains_company_host_key').on(t.companyId, t.host)],
);
