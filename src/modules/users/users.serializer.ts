import { holdsConsoleRole } from '../../platform/auth/console-access.js';
import { dateOnly, isoTimestamp, lagosDate } from '../../platform/format.js';
import { moneyString } from '../../tax-engine/money.js';
import { isExited } from './lifecycle/users.exit.repo.js';
import { USER_ROW as at, LISTED_ROW as listedAt, ROW_FIELDS, type UserFlatRow } from './users.flat-row.repo.js';
import type { UserWithNames } from './users.repo.js';

type Nullable<T> = T | null;
type Instant = Nullable<Date | string>;

/**
 * The User object of the published interface, built once from a flat user row (users.flat-row.repo.ts):
 * the hot reads (U1, U2) hand their driver rows here as they arrive. `mayGrantConsoleAccess` is
 * whether the viewer's token has `all`: the onboarding token of a user holding (or, while
 * suspended, keeping aside) a console role sets that user's password, so only a viewer who could
 * grant the role sees it; others get null. `today` is the Lagos day: an exited user (exit_date
 * before it) reads `is_active: false` whatever the stored flag (docs/users.md, "Leavers").
 */
export function serializeUserRow(row: UserFlatRow, mayGrantConsoleAccess = false, today = lagosDate()) {
  const roles = row[at.roles] as string[];
  const consoleUser = holdsConsoleRole(roles) || holdsConsoleRole(row[at.suspendedRoles] as Nullable<string[]>);
  const managerFirstName = row[at.managerFirstName] as Nullable<string>;
  const exitDate = dateOnly(row[at.exitDate] as Instant);
  return {
    id: row[at.id] as number,
    manager_id: row[at.managerId] as Nullable<number>,
    employee_id: row[at.employeeId] as string,
    first_name: row[at.firstName] as string,
    last_name: row[at.lastName] as string,
    email: row[at.email] as string,
    email_verified_at: isoTimestamp(row[at.emailVerifiedAt] as Instant),
    personal_email: row[at.personalEmail] as string,
    unique_id: row[at.uniqueId] as string,
    user_types: row[at.userTypeName] as Nullable<string>,
    address: row[at.address] as Nullable<string>,
    phone: row[at.phone] as Nullable<string>,
    document_paths: (row[at.documentPaths] as Nullable<string[]>) ?? null,
    onboarding_token: consoleUser && !mayGrantConsoleAccess ? null : (row[at.onboardingToken] as Nullable<string>),
    token_expires_at: isoTimestamp(row[at.tokenExpiresAt] as Instant),
    onboarding_completed: row[at.onboardingCompleted] ? 1 : 0,
    domain_id: row[at.domainId] as Nullable<number>,
    level: row[at.level] as Nullable<string>,
    title: row[at.title] as Nullable<string>,
    department: row[at.department] as Nullable<string>,
    office_location: row[at.officeLocation] as Nullable<string>,
    base_salary: moneyString(row[at.baseSalary] as Nullable<string>),
    allowances: moneyString(row[at.allowances] as Nullable<string>),
    // The statutory fields (users.statutory-fields.validation.ts), in StatutoryUserProperties' order.
    annual_rent_paid: moneyString(row[at.annualRentPaid] as Nullable<string>),
    life_assurance_premium: moneyString(row[at.lifeAssurancePremium] as Nullable<string>),
    nin: row[at.nin] as Nullable<string>,
    tax_id: row[at.taxId] as Nullable<string>,
    state_of_residence: row[at.stateOfResidence] as Nullable<string>,
    rsa_pin: row[at.rsaPin] as Nullable<string>,
    pfa_code: row[at.pfaCode] as Nullable<string>,
    nhf_number: row[at.nhfNumber] as Nullable<string>,
    nhf_opt_in: row[at.nhfOptIn] as boolean,
    gender: row[at.gender] as Nullable<string>,
    is_expatriate: row[at.isExpatriate] as boolean,
    pension_exempt: row[at.pensionExempt] as boolean,
    pension_exempt_reason: row[at.pensionExemptReason] as Nullable<string>,
    payment_frequency: row[at.paymentFrequency] as Nullable<string>,
    start_date: dateOnly(row[at.startDate] as Instant),
    exit_date: exitDate,
    exit_reason: row[at.exitReason] as Nullable<string>,
    bank_name: row[at.bankName] as Nullable<string>,
    account_number: row[at.accountNumber] as Nullable<string>,
    // The bank fields (users.bank-fields.validation.ts BankUserFields).
    bank_code: row[at.bankCode] as Nullable<string>,
    account_name: row[at.accountName] as Nullable<string>,
    bank_account_verified_at: isoTimestamp(row[at.bankAccountVerifiedAt] as Instant),
    manager: managerFirstName === null ? null : `${managerFirstName} ${row[at.managerLastName] as string}`,
    roles,
    is_active: (row[at.isActive] as boolean) && !isExited(exitDate, today),
    is_suspended: row[at.isSuspended] as boolean,
    suspended_at: isoTimestamp(row[at.suspendedAt] as Instant),
    suspension_ends_at: isoTimestamp(row[at.suspensionEndsAt] as Instant),
    suspension_reason: row[at.suspensionReason] as Nullable<string>,
    company_id: row[at.companyId] as number,
    deleted_at: isoTimestamp(row[at.deletedAt] as Instant),
    created_at: isoTimestamp(row[at.createdAt] as Date | string),
    updated_at: isoTimestamp(row[at.updatedAt] as Date | string),
  };
}

/** The same User object from a user read through Drizzle (U4, U10/U11, events, the console). */
export function serializeUser(named: UserWithNames, mayGrantConsoleAccess = false, today = lagosDate()) {
  return serializeUserRow(userRowOf(named), mayGrantConsoleAccess, today);
}

/** The flat row of a user read through Drizzle (U4, U10/U11, events): one serializer for both. */
function userRowOf(named: UserWithNames): UserFlatRow {
  const user = named.user as Record<string, unknown>;
  const names = named as unknown as Record<string, unknown>;
  return ROW_FIELDS.map((field) => (field in user ? user[field] : names[field]));
}

/**
 * A row of the console's Employees table (users.flat-row.repo.ts, LISTED_FIELDS): the fields it
 * shows, each as serializeUserRow gives it, so the table reads a listed row and a whole User alike.
 */
export function serializeListedRow(row: UserFlatRow, today = lagosDate()) {
  const exitDate = dateOnly(row[listedAt.exitDate] as Instant);
  return {
    id: row[listedAt.id] as number,
    employee_id: row[listedAt.employeeId] as string,
    first_name: row[listedAt.firstName] as string,
    last_name: row[listedAt.lastName] as string,
    email: row[listedAt.email] as string,
    user_types: row[listedAt.userTypeName] as Nullable<string>,
    title: row[listedAt.title] as Nullable<string>,
    base_salary: moneyString(row[listedAt.baseSalary] as Nullable<string>),
    is_active: (row[listedAt.isActive] as boolean) && !isExited(exitDate, today),
    is_suspended: row[listedAt.isSuspended] as boolean,
    onboarding_completed: row[listedAt.onboardingCompleted] ? 1 : 0,
    exit_date: exitDate,
  };
}

export type ListedUserRow = ReturnType<typeof serializeListedRow>;
