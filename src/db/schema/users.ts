import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    managerId: integer('manager_id'),
    employeeId: text('employee_id').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    emailVerifiedAt: ts('email_verified_at'),
    personalEmail: text('personal_email').notNull(),
    uniqueId: text('unique_id').notNull(),
    userTypeId: integer('user_type_id'),
    domainId: integer('domain_id'),
    address: text('address'),
    phone: text('phone'),
    documentPaths: jsonb('document_paths').$type<string[] | null>(),
    onboardingToken: text('onboarding_token'),
    tokenExpiresAt: ts('token_expires_at'),
    onboardingCompleted: boolean('onboarding_completed').notNull().default(false),
    level: text('level'),
    title: text('title'),
    department: text('department'),
    officeLocation: text('office_location'),
    baseSalary: numeric('base_salary', { precision: 18, scale: 2 }),
    allowances: numeric('allowances', { precision: 18, scale: 2 }),
    paymentFrequency: text('payment_frequency'),
    startDate: date('start_date', { mode: 'string' }),
    bankName: text('bank_name'),
    accountNumber: text('account_number'),
    passwordHash: text('password_hash'),
    roles: text('roles').array().notNull().default(sql`ARRAY['user']::text[]`),
    isActive: boolean('is_active').notNull().default(false),
    isSuspended: boolean('is_suspended').notNull().default(false),
    suspendedAt: ts('suspended_at'),
    suspensionEndsAt: ts('suspension_ends_at'),
    suspensionReason: text('suspension_reason'),
    suspendedRoles: text('suspended_roles').array(),
    annualRentPaid: numeric('annual_rent_paid', { precision: 18, scale: 2 }),
    lifeAssurancePremium: numeric('life_assurance_premium', { precision: 18, scale: 2 }),
    // 0082: bank identity and statutory identity.
    bankCode: text('bank_code'),
    accountName: text('account_name'),
    bankAccountVerifiedAt: ts('bank_account_verified_at'),
    nin: text('nin'),
    taxId: text('tax_id'),
    stateOfResidence: text('state_of_residence'),
    rsaPin: text('rsa_pin'),
    pfaCode: text('pfa_code'),
    nhfNumber: text('nhf_number'),
    nhfOptIn: boolean('nhf_opt_in').notNull().default(false),
    gender: text('gender'),
    isExpatriate: boolean('is_expatriate').notNull().default(false),
    // 0202: leavers (docs/users.md, "Leavers").
    exitDate: date('exit_date', { mode: 'string' }),
    exitReason: text('exit_reason'),
    // 0203: exempt from the pension scheme (no employee or employer pension), and why.
    pensionExempt: boolean('pension_exempt').notNull().default(false),
    pensionExemptReason: text('pension_exempt_reason'),
    deletedAt: ts('deleted_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('users_company_id_idx').on(t.companyId, t.id).where(sql`deleted_at IS NULL`),
    uniqueIndex('users_email_key').on(t.email).where(sql`deleted_at IS NULL`),
    uniqueIndex('users_company_personal_email_key').on(t.companyId, t.personalEmail).where(sql`deleted_at IS NULL`),
    uniqueIndex('users_unique_id_key').on(t.uniqueId),
    uniqueIndex('users_onboarding_token_key').on(t.onboardingToken),
    index('users_manager_id_idx').on(t.managerId),
    // 0202_leavers.sql: the exited filter (U1 `status=exited`, the console's Exited).
    index('users_company_exit_date_idx').on(t.companyId, t.exitDate).where(sql`deleted_at IS NULL AND exit_date IS NOT NULL`),
    // 0263_users_console_sort.sql: Console → Employees by name or employee number.
    index('users_company_name_idx').on(t.companyId, t.lastName, t.firstName, t.id).where(sql`deleted_at IS NULL`),
    index('users_company_employee_id_idx').on(t.companyId, t.employeeId, t.id).where(sql`deleted_at IS NULL`),
    // 0010_users.sql: e-mail derivation (stem of every address, deleted ones too); 0266 adds the
    // address, so "is this exact address taken, by anyone" is one probe of it.
    index('users_email_stem_idx').on(
      sql`(regexp_replace(split_part(email, '@', 1), '[0-9]+$', '') || '@' || split_part(email, '@', 2))`,
      t.email,
    ),
  ],
);

/**
 * Each user's state of residence over time (0203_tax_year_rules.sql): written by triggers on users in
 * the statement that changes the state; the state on 1 January decides a tax year's PAYE authority.
 */
export const userStateHistory = pgTable(
  'user_state_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id').notNull(),
    userId: integer('user_id').notNull(),
    state: text('state'),
    effectiveFrom: date('effective_from', { mode: 'string' }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('user_state_history_user_idx').on(t.userId, t.effectiveFrom, t.id)],
);

/**
 * Live users per company, moved by triggers on users (migrations/0140_user_counts.sql): U1's total
 * is the sum of the company's rows, one per slot (0182_user_counts_slots.sql: concurrent writers
 * of one company move different rows).
 */
export const userCounts = pgTable(
  'user_counts',
  {
    companyId: integer('company_id').notNull(),
    slot: smallint('slot').notNull(),
    live: integer('live').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.slot] })],
);
