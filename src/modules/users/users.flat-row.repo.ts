// One user as a flat row, the shape the hot reads (read/users.read.repo.ts: U1's page, U2, the
// console's list) and U3's insert (create/users.create.repo.ts) hand the serializer: the columns
// the User object shows, in its order, so that the serializer builds each User once, straight from
// the row (Drizzle's nested object per row and then the serializer's second object were a fifth of
// the list's CPU: docs/benchmarks-history.md, "Reads near the machine's limit", step 3).
// password_hash and user_type_id are not read: the User object does not show them.
//
// Each row arrives as ONE json column, `json_build_array(...)` of those columns, parsed by one
// JSON.parse (the driver's json type), instead of 54 columns. Per request node-postgres then reads
// a two-column row description and two fields per row instead of 55 descriptions (field objects,
// a type parser looked up for each) and 55 fields per row: about 0.05 ms of the server's single
// thread per list request moved to PostgreSQL, which runs on the other core (docs/benchmarks.md).
// Timestamps and numerics are cast to text inside the array so that they arrive exactly as the
// plain columns did (PostgreSQL's timestamp text for isoTimestamp, exact decimal strings for money):
// a numeric as a JSON number would become a binary float.
import { aliasedTable, type Column, type SQL, sql } from 'drizzle-orm';
import { users, userTypes } from '../../db/schema/index.js';

/** The user's manager, joined under this name by every statement that selects flatUserRowSql. */
export const manager = aliasedTable(users, 'manager');

const rowColumns = {
  id: users.id,
  managerId: users.managerId,
  employeeId: users.employeeId,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  emailVerifiedAt: users.emailVerifiedAt,
  personalEmail: users.personalEmail,
  uniqueId: users.uniqueId,
  userTypeName: userTypes.name,
  address: users.address,
  phone: users.phone,
  documentPaths: users.documentPaths,
  onboardingToken: users.onboardingToken,
  tokenExpiresAt: users.tokenExpiresAt,
  onboardingCompleted: users.onboardingCompleted,
  domainId: users.domainId,
  level: users.level,
  title: users.title,
  department: users.department,
  officeLocation: users.officeLocation,
  baseSalary: users.baseSalary,
  allowances: users.allowances,
  annualRentPaid: users.annualRentPaid,
  lifeAssurancePremium: users.lifeAssurancePremium,
  nin: users.nin,
  taxId: users.taxId,
  stateOfResidence: users.stateOfResidence,
  rsaPin: users.rsaPin,
  pfaCode: users.pfaCode,
  nhfNumber: users.nhfNumber,
  nhfOptIn: users.nhfOptIn,
  gender: users.gender,
  isExpatriate: users.isExpatriate,
  pensionExempt: users.pensionExempt,
  pensionExemptReason: users.pensionExemptReason,
  paymentFrequency: users.paymentFrequency,
  startDate: users.startDate,
  exitDate: users.exitDate,
  exitReason: users.exitReason,
  bankName: users.bankName,
  accountNumber: users.accountNumber,
  bankCode: users.bankCode,
  accountName: users.accountName,
  bankAccountVerifiedAt: users.bankAccountVerifiedAt,
  managerFirstName: manager.firstName,
  managerLastName: manager.lastName,
  roles: users.roles,
  suspendedRoles: users.suspendedRoles,
  isActive: users.isActive,
  isSuspended: users.isSuspended,
  suspendedAt: users.suspendedAt,
  suspensionEndsAt: users.suspensionEndsAt,
  suspensionReason: users.suspensionReason,
  companyId: users.companyId,
  deletedAt: users.deletedAt,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};
export type UserRowField = keyof typeof rowColumns;
export const ROW_FIELDS = Object.keys(rowColumns) as UserRowField[];
/** Where each field sits in a flat user row: `row[USER_ROW.email]`. */
export const USER_ROW = Object.fromEntries(ROW_FIELDS.map((field, index) => [field, index])) as Record<UserRowField, number>;
/**
 * One user as a flat row (USER_ROW's positions). Timestamps and dates are PostgreSQL's text when read
 * here, Dates when converted from a Drizzle row (`userRowOf` in users.serializer.ts): the serializer takes both.
 */
export type UserFlatRow = readonly unknown[];

/** A column as json_build_array should carry it: as text where JSON would change its value or its text. */
function asJsonElement(column: Column): SQL {
  const textual = column.columnType === 'PgNumeric' || column.columnType.startsWith('PgTimestamp');
  return textual ? sql`${column}::text` : sql`${column}`;
}
/** One user as one json array, in ROW_FIELDS' order (json_build_array takes up to 100 arguments). */
export const flatUserRowSql = sql<UserFlatRow>`json_build_array(${sql.join(
  ROW_FIELDS.map((field) => asJsonElement(rowColumns[field])),
  sql`, `,
)})`;

/**
 * The fields of the console's Employees table (src/web/employees-list.view.ts), in this order: its
 * first view and pages read these 12 as one json array a user instead of the 58 of a flat row
 * (docs/console.md, "Overview pages"). `serializeListedRow` (users.serializer.ts) reads them.
 */
export const LISTED_FIELDS = [
  'id',
  'employeeId',
  'firstName',
  'lastName',
  'email',
  'userTypeName',
  'title',
  'baseSalary',
  'isActive',
  'isSuspended',
  'onboardingCompleted',
  'exitDate',
] as const satisfies readonly UserRowField[];
/** Where each field sits in a listed row: `row[LISTED_ROW.email]`. */
export const LISTED_ROW = Object.fromEntries(LISTED_FIELDS.map((field, index) => [field, index])) as Record<
  (typeof LISTED_FIELDS)[number],
  number
>;
export const listedUserRowSql = sql<UserFlatRow>`json_build_array(${sql.join(
  LISTED_FIELDS.map((field) => asJsonElement(rowColumns[field])),
  sql`, `,
)})`;
