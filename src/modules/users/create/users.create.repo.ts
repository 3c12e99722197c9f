// The SQL of U3 and of U8's rows that is create's alone: the batched INSERT of new users
// (create/users.create.service.ts plans and calls it; re-invites are usersRepo.patchMany).
import { sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { pgArray } from '../../../db/pg-array.js';
import { namedStatement } from '../../../db/prepared.js';
import { flatUserRowSql, type UserFlatRow } from '../users.flat-row.repo.js';

/** What `insertMany` writes (the create core fills every field). */
export interface NewUser {
  employeeId: string;
  firstName: string;
  lastName: string;
  email: string;
  personalEmail: string;
  uniqueId: string;
  userTypeId: number;
  domainId: number;
  title: string | null;
  department: string | null;
  officeLocation: string | null;
  baseSalary: string | null;
  allowances: string | null;
  startDate: string;
  managerId: number | null;
  bankName: string | null;
  accountNumber: string | null;
  bankCode: string | null;
  roles: string[];
  isActive: boolean;
  onboardingToken: string | null;
  tokenExpiresAt: string | null;
}

/** `insertMany`'s columns, in the statement's order: each goes in as ONE array value (its placeholder's name). */
const COLUMNS = [
  ['employeeId', 'text'],
  ['firstName', 'text'],
  ['lastName', 'text'],
  ['email', 'text'],
  ['personalEmail', 'text'],
  ['uniqueId', 'text'],
  ['userTypeId', 'int'],
  ['domainId', 'int'],
  ['title', 'text'],
  ['department', 'text'],
  ['officeLocation', 'text'],
  ['baseSalary', 'numeric'],
  ['allowances', 'numeric'],
  ['startDate', 'date'],
  ['managerId', 'int'],
  ['bankName', 'text'],
  ['accountNumber', 'text'],
  ['roles', 'text'],
  ['isActive', 'boolean'],
  ['onboardingToken', 'text'],
  ['tokenExpiresAt', 'timestamptz'],
  ['bankCode', 'text'],
] as const satisfies readonly (readonly [keyof NewUser, string])[];

/**
 * Inserts many users in ONE statement: one array parameter per column, unnested into rows (a
 * 2,000-row chunk would otherwise need ~46,000 bind parameters, or a JSON document repeating
 * every key on every row). ON CONFLICT DO NOTHING on every unique index: a row lost to a
 * concurrent writer is just not returned, and the caller re-plans it. Written once with a
 * placeholder per column (db/prepared.ts namedStatement).
 */
const insertSql = sql`INSERT INTO users (company_id, employee_id, first_name, last_name, email, personal_email, unique_id, user_type_id,
            domain_id, title, department, office_location, base_salary, allowances, start_date, manager_id, bank_name,
            account_number, roles, is_active, onboarding_completed, onboarding_token, token_expires_at, bank_code)
          SELECT ${sql.placeholder('companyId')}, v.employee_id, v.first_name, v.last_name, v.email, v.personal_email, v.unique_id, v.user_type_id,
            v.domain_id, v.title, v.department, v.office_location, v.base_salary, v.allowances, v.start_date, v.manager_id, v.bank_name,
            v.account_number, v.roles::text[], v.is_active, v.is_active, v.onboarding_token, v.token_expires_at, v.bank_code
          FROM unnest(${sql.join(
            COLUMNS.map(([key, type]) => sql`${sql.placeholder(key)}::${sql.raw(type)}[]`),
            sql`, `,
          )})
            AS v(employee_id, first_name, last_name, email, personal_email, unique_id, user_type_id, domain_id, title, department,
              office_location, base_salary, allowances, start_date, manager_id, bank_name, account_number, roles, is_active,
              onboarding_token, token_expires_at, bank_code)
          ON CONFLICT DO NOTHING`;

const insertIds = namedStatement<{ id: number; unique_id: string }>('users_insert_many', sql`${insertSql} RETURNING id, unique_id`);

/**
 * The same insert returning each inserted user as its flat row (users.flat-row.repo.ts, U2's
 * columns with the type's and manager's names), read in the same statement: U3 answers and
 * announces the user from it instead of reading it twice more. The CTE is read under the table's
 * name, so that the flat row's columns ("users"."email", …) are its columns. The type's and the
 * manager's names come in as arrays beside the rows (the caller has them: the vocabulary and the
 * lookup's manager rows), not joined from user_types and users: the statement then reads no table,
 * so any plan of it is right. Joined, PostgreSQL's plan cache kept the generic plan it made while
 * users was empty (a hash join scanning every user for the manager's name), and every create of a
 * new, unanalyzed database scanned the whole table (docs/users.md, "Performance notes").
 */
const insertRows = namedStatement<{ id: number; unique_id: string; row: UserFlatRow }>(
  'users_insert_rows',
  sql`WITH inserted AS (${insertSql} RETURNING *)
      SELECT users.id, users.unique_id, ${flatUserRowSql} AS row FROM inserted AS users
      JOIN unnest(${sql.placeholder('uniqueId')}::text[], ${sql.placeholder('typeName')}::text[],
          ${sql.placeholder('managerFirstName')}::text[], ${sql.placeholder('managerLastName')}::text[])
        AS names(unique_id, type_name, manager_first_name, manager_last_name) ON names.unique_id = users.unique_id
      CROSS JOIN LATERAL (SELECT names.type_name AS name) AS user_types
      CROSS JOIN LATERAL (SELECT names.manager_first_name AS first_name, names.manager_last_name AS last_name) AS manager`,
);

/** What a user's flat row shows of its type and manager, by name (insertMany's `names`). */
export interface NewUserNames {
  typeName: string;
  managerFirstName: string | null;
  managerLastName: string | null;
}

export const createRepo = {
  /** With `names` (one per row: U3) it also returns each inserted user's flat row. */
  async insertMany(
    executor: Executor,
    companyId: number,
    rows: NewUser[],
    names?: NewUserNames[],
  ): Promise<{ id: number; uniqueId: string; row?: UserFlatRow }[]> {
    if (rows.length === 0) return [];
    const values: Record<string, unknown> = { companyId };
    for (const [key] of COLUMNS) {
      values[key] =
        key === 'roles'
          ? pgArray(rows.map((row) => pgArray(row.roles)))
          : pgArray(rows.map((row) => row[key] as string | number | boolean | null));
    }
    if (!names) return (await insertIds(executor, values)).map((row) => ({ id: row.id, uniqueId: row.unique_id }));
    values.typeName = pgArray(names.map((name) => name.typeName));
    values.managerFirstName = pgArray(names.map((name) => name.managerFirstName));
    values.managerLastName = pgArray(names.map((name) => name.managerLastName));
    return (await insertRows(executor, values)).map((row) => ({ id: row.id, uniqueId: row.unique_id, row: row.row }));
  },
};
