// The User object of the published interface written by PostgreSQL, as the JSON text the API sends
// (docs/decisions.md, "Answers written as JSON text"). SQL fragments only, which users.read.repo.ts
// selects: a repo file, like all SQL.
//
// U1's page used to read each user as a json array, parse it (JSON.parse), build the User object
// (serializeUserRow) and serialize it again (fast-json-stringify): ~4 µs of the server's single
// thread per user, a third of a 20-user page's CPU. On a PostgreSQL server (users.service.ts says
// when), PostgreSQL, which has the other core, writes each user's JSON text while it reads the row,
// and the server passes the text through: server CPU per page 0.28 -> 0.19-0.24 ms (docs/benchmarks.md).
// U2 (one user) keeps the serializer: for one row the text costs PostgreSQL more than it saves here.
//
// The text is byte-for-byte what `JSON.stringify(serializeUser(...))` gives for the same user, in
// UserSchema's key order (users.json.test.ts holds the two equal, byte for byte, for users with
// every field set, every optional field null, and random strings, instants and money). Each value
// is written by the rules of db/json-text.ts; beyond those:
// - money as its numeric(18,2) text (a JSON string here, as moneyString writes it); onboarding_completed as 1 or 0;
// - onboarding_token null for a user holding (or keeping aside while suspended) a console role
//   unless the viewer may grant console access (the `mayGrant` parameter; see serializeUserRow);
// - is_active false for an exited user (exit_date before `today`, the Lagos day: docs/users.md, "Leavers").
import { type Column, type SQL, sql } from 'drizzle-orm';
import { jsonObject, jsonValueOf } from '../../../db/json-text.js';
import { users } from '../../../db/schema/index.js';
import { CONSOLE_ROLES } from '../../../platform/auth/console-access.js';
import { exitedSql } from '../lifecycle/users.exit.repo.js';

const consoleRoles = sql.raw(`'{${CONSOLE_ROLES.join(',')}}'::text[]`);

/**
 * The JSON text of one user (a text column), for a select from `users` joined with its user type
 * (`userTypeName`) and its manager (`manager`, an alias of users). `mayGrant` is the SQL of a boolean
 * parameter: whether the viewer's token has `all`.
 */
export function userJson(
  columns: { userTypeName: Column; managerFirstName: Column; managerLastName: Column },
  mayGrant: SQL,
  today: SQL,
): SQL<string> {
  const u = users;
  const fields: [string, SQL][] = [
    ['id', jsonValueOf(u.id, 'integer')],
    ['manager_id', jsonValueOf(u.managerId, 'integer')],
    ['employee_id', jsonValueOf(u.employeeId, 'string')],
    ['first_name', jsonValueOf(u.firstName, 'string')],
    ['last_name', jsonValueOf(u.lastName, 'string')],
    ['email', jsonValueOf(u.email, 'string')],
    ['email_verified_at', jsonValueOf(u.emailVerifiedAt, 'timestamp')],
    ['personal_email', jsonValueOf(u.personalEmail, 'string')],
    ['unique_id', jsonValueOf(u.uniqueId, 'string')],
    ['user_types', jsonValueOf(columns.userTypeName, 'string')],
    ['address', jsonValueOf(u.address, 'string')],
    ['phone', jsonValueOf(u.phone, 'string')],
    ['document_paths', jsonValueOf(u.documentPaths, 'jsonStrings')],
    [
      'onboarding_token',
      sql`CASE WHEN NOT ${mayGrant} AND (${u.roles} && ${consoleRoles} OR coalesce(${u.suspendedRoles} && ${consoleRoles}, false)) THEN 'null' ELSE ${jsonValueOf(u.onboardingToken, 'string')} END`,
    ],
    ['token_expires_at', jsonValueOf(u.tokenExpiresAt, 'timestamp')],
    ['onboarding_completed', sql`CASE WHEN ${u.onboardingCompleted} THEN '1' ELSE '0' END`],
    ['domain_id', jsonValueOf(u.domainId, 'integer')],
    ['level', jsonValueOf(u.level, 'string')],
    ['title', jsonValueOf(u.title, 'string')],
    ['department', jsonValueOf(u.department, 'string')],
    ['office_location', jsonValueOf(u.officeLocation, 'string')],
    ['base_salary', jsonValueOf(u.baseSalary, 'money')],
    ['allowances', jsonValueOf(u.allowances, 'money')],
    ['annual_rent_paid', jsonValueOf(u.annualRentPaid, 'money')],
    ['life_assurance_premium', jsonValueOf(u.lifeAssurancePremium, 'money')],
    ['nin', jsonValueOf(u.nin, 'string')],
    ['tax_id', jsonValueOf(u.taxId, 'string')],
    ['state_of_residence', jsonValueOf(u.stateOfResidence, 'string')],
    ['rsa_pin', jsonValueOf(u.rsaPin, 'string')],
    ['pfa_code', jsonValueOf(u.pfaCode, 'string')],
    ['nhf_number', jsonValueOf(u.nhfNumber, 'string')],
    ['nhf_opt_in', jsonValueOf(u.nhfOptIn, 'boolean')],
    ['gender', jsonValueOf(u.gender, 'string')],
    ['is_expatriate', jsonValueOf(u.isExpatriate, 'boolean')],
    ['pension_exempt', jsonValueOf(u.pensionExempt, 'boolean')],
    ['pension_exempt_reason', jsonValueOf(u.pensionExemptReason, 'string')],
    ['payment_frequency', jsonValueOf(u.paymentFrequency, 'string')],
    ['start_date', jsonValueOf(u.startDate, 'date')],
    ['exit_date', jsonValueOf(u.exitDate, 'date')],
    ['exit_reason', jsonValueOf(u.exitReason, 'string')],
    ['bank_name', jsonValueOf(u.bankName, 'string')],
    ['account_number', jsonValueOf(u.accountNumber, 'string')],
    ['bank_code', jsonValueOf(u.bankCode, 'string')],
    ['account_name', jsonValueOf(u.accountName, 'string')],
    ['bank_account_verified_at', jsonValueOf(u.bankAccountVerifiedAt, 'timestamp')],
    [
      'manager',
      sql`CASE WHEN ${columns.managerFirstName} IS NULL THEN 'null' ELSE to_json(${columns.managerFirstName} || ' ' || ${columns.managerLastName})::text END`,
    ],
    ['roles', jsonValueOf(u.roles, 'strings')],
    ['is_active', sql`CASE WHEN ${u.isActive} AND NOT ${exitedSql(u.exitDate, today)} THEN 'true' ELSE 'false' END`],
    ['is_suspended', jsonValueOf(u.isSuspended, 'boolean')],
    ['suspended_at', jsonValueOf(u.suspendedAt, 'timestamp')],
    ['suspension_ends_at', jsonValueOf(u.suspensionEndsAt, 'timestamp')],
    ['suspension_reason', jsonValueOf(u.suspensionReason, 'string')],
    ['company_id', jsonValueOf(u.companyId, 'integer')],
    ['deleted_at', jsonValueOf(u.deletedAt, 'timestamp')],
    ['created_at', jsonValueOf(u.createdAt, 'timestamp')],
    ['updated_at', jsonValueOf(u.updatedAt, 'timestamp')],
  ];
  return jsonObject(fields);
}
