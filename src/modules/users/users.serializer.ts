import { moneyString } from '../../payroll/money.js';
import { holdsConsoleRole } from '../../platform/auth/console-access.js';
import { dateOnly, isoTimestamp } from '../../platform/format.js';
import { bankUserFields } from './users.bank-fields.js';
import type { UserWithNames } from './users.repo.js';
import { serializeStatutory } from './users.statutory-fields.js';

/**
 * The User object of interface.md. `mayGrantConsoleAccess` is whether the viewer's token has `all`:
 * the onboarding token of a user holding (or, while suspended, keeping aside) a console role sets
 * that user's password, so only a viewer who could grant the role sees it; others get null.
 */
export function serializeUser({ user, userTypeName, managerFirstName, managerLastName }: UserWithNames, mayGrantConsoleAccess = false) {
  const consoleUser = holdsConsoleRole(user.roles) || holdsConsoleRole(user.suspendedRoles);
  return {
    id: user.id,
    manager_id: user.managerId,
    employee_id: user.employeeId,
    first_name: user.firstName,
    last_name: user.lastName,
    email: user.email,
    email_verified_at: isoTimestamp(user.emailVerifiedAt),
    personal_email: user.personalEmail,
    unique_id: user.uniqueId,
    user_types: userTypeName,
    address: user.address,
    phone: user.phone,
    document_paths: user.documentPaths ?? null,
    onboarding_token: consoleUser && !mayGrantConsoleAccess ? null : user.onboardingToken,
    token_expires_at: isoTimestamp(user.tokenExpiresAt),
    onboarding_completed: user.onboardingCompleted ? 1 : 0,
    domain_id: user.domainId,
    level: user.level,
    title: user.title,
    department: user.department,
    office_location: user.officeLocation,
    base_salary: moneyString(user.baseSalary),
    allowances: moneyString(user.allowances),
    ...serializeStatutory(user),
    payment_frequency: user.paymentFrequency,
    start_date: dateOnly(user.startDate),
    bank_name: user.bankName,
    account_number: user.accountNumber,
    ...bankUserFields(user),
    manager: managerFirstName === null ? null : `${managerFirstName} ${managerLastName}`,
    roles: user.roles,
    is_active: user.isActive,
    is_suspended: user.isSuspended,
    suspended_at: isoTimestamp(user.suspendedAt),
    suspension_ends_at: isoTimestamp(user.suspensionEndsAt),
    suspension_reason: user.suspensionReason,
    company_id: user.companyId,
    deleted_at: isoTimestamp(user.deletedAt),
    created_at: isoTimestamp(user.createdAt) as string,
    updated_at: isoTimestamp(user.updatedAt) as string,
  };
}
