// All SQL of the users feature. Every method takes the company id first: another company's user
// is simply not found.
import { aliasedTable, and, asc, count, eq, ilike, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import { preparedPerExecutor, queryNamed } from '../../db/prepared.js';
import { users, userTypes } from '../../db/schema/index.js';
import { lagosDate } from '../../platform/format.js';
import { exitedSql } from './lifecycle/users.exit.repo.js';
import { flatUserRowSql, type UserFlatRow, usersReadRepo } from './read/users.read.repo.js';

const manager = aliasedTable(users, 'manager');

const userColumns = {
  user: users,
  userTypeName: userTypes.name,
  managerFirstName: manager.firstName,
  managerLastName: manager.lastName,
};

export type UserRow = typeof users.$inferSelect;
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
export interface UserWithNames {
  user: UserRow;
  userTypeName: string | null;
  managerFirstName: string | null;
  managerLastName: string | null;
}

function selectUsers(executor: Executor) {
  return executor
    .select(userColumns)
    .from(users)
    .leftJoin(userTypes, eq(userTypes.id, users.userTypeId))
    .leftJoin(manager, eq(manager.id, users.managerId));
}

// U2's lookup for the callers that act on the user (U4, U10/U11, bank verification), prepared once
// (src/db/prepared.ts). U1's page and U2 itself read flat rows (users.read.repo.ts).
const preparedFindById = preparedPerExecutor((executor) =>
  selectUsers(executor)
    .where(and(eq(users.companyId, sql.placeholder('companyId')), eq(users.id, sql.placeholder('id')), isNull(users.deletedAt)))
    .limit(1)
    .prepare('users_find_by_id'),
);
// The company's live users, kept by triggers (migrations/0140_user_counts.sql) instead of counted:
// one primary-key read whatever the company's size. No row: no user was ever written.

/** `%text%` for ILIKE with the user's % and _ taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** The console's employee filter (web: Employees), by standing; `exited` wins over the others (docs/users.md, "Leavers"). */
export const USER_STATUSES = ['active', 'invited', 'inactive', 'suspended', 'exited'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

function statusCondition(status: UserStatus | undefined, today: string): SQL | undefined {
  const stillEmployed = sql`NOT ${exitedSql(users.exitDate, today)}`;
  switch (status) {
    case 'exited':
      // The bare range: an index condition of users_company_exit_date_idx (0202_leavers.sql).
      return and(isNotNull(users.exitDate), sql`${users.exitDate} < ${today}::date`);
    case 'suspended':
      return and(eq(users.isSuspended, true), stillEmployed);
    case 'active':
      return and(eq(users.isActive, true), eq(users.isSuspended, false), stillEmployed);
    case 'invited':
      return and(eq(users.isActive, false), eq(users.onboardingCompleted, false), eq(users.isSuspended, false), stillEmployed);
    case 'inactive':
      return and(eq(users.isActive, false), eq(users.onboardingCompleted, true), eq(users.isSuspended, false), stillEmployed);
    default:
      return undefined;
  }
}

export const usersRepo = {
  /** The company's live users (the counter of 0140_user_counts.sql). */
  count: usersReadRepo.count,

  /**
   * U1's statement (the page, carrying the total) as PostgreSQL receives it, with its parameters'
   * names in order: bench/bare/physical-limit.ts runs exactly this with the bare driver.
   */
  listStatements(executor: Executor): Record<'list', { text: string; params: string[] }> {
    return { list: usersReadRepo.pageStatement(executor) };
  },

  async findById(executor: Executor, companyId: number, id: number): Promise<UserWithNames | undefined> {
    const [row] = await preparedFindById(executor).execute({ companyId, id });
    return row;
  },

  async findManyByIds(executor: Executor, companyId: number, ids: number[]): Promise<UserWithNames[]> {
    if (ids.length === 0) return [];
    return selectUsers(executor).where(and(eq(users.companyId, companyId), inArray(users.id, ids), isNull(users.deletedAt)));
  },

  /**
   * The console's employee search: live users whose name, e-mails or employee id contain `text`,
   * optionally of one status, a page of them by id and the total (two statements). The console
   * list does not show managers, so their names are not joined.
   */
  async search(
    executor: Executor,
    companyId: number,
    filter: { text?: string; status?: UserStatus; offset: number; limit: number; today?: string },
  ): Promise<{ rows: { user: UserRow; userTypeName: string | null }[]; total: number }> {
    const pattern = filter.text ? containsPattern(filter.text) : undefined;
    const where = and(
      eq(users.companyId, companyId),
      isNull(users.deletedAt),
      pattern
        ? or(
            ilike(users.firstName, pattern),
            ilike(users.lastName, pattern),
            sql`(${users.firstName} || ' ' || ${users.lastName}) ILIKE ${pattern}`,
            ilike(users.email, pattern),
            ilike(users.personalEmail, pattern),
            ilike(users.employeeId, pattern),
          )
        : undefined,
      statusCondition(filter.status, filter.today ?? lagosDate()),
    );
    // Unfiltered (the console's first view), the total is the company's counter (0140_user_counts.sql);
    // a text or status filter has to count its matches.
    const [rows, total] = await Promise.all([
      executor
        .select({ user: users, userTypeName: userTypes.name })
        .from(users)
        .leftJoin(userTypes, eq(userTypes.id, users.userTypeId))
        .where(where)
        .orderBy(asc(users.id))
        .offset(filter.offset)
        .limit(filter.limit),
      pattern || filter.status
        ? executor
            .select({ total: count() })
            .from(users)
            .where(where)
            .then(([row]) => Number(row.total))
        : usersRepo.count(executor, companyId),
    ]);
    return { rows, total };
  },

  /** The live user row (no joins), locked for the rest of the transaction. */
  async lockById(executor: Executor, companyId: number, id: number): Promise<UserRow | undefined> {
    const [row] = await executor
      .select()
      .from(users)
      .where(and(eq(users.companyId, companyId), eq(users.id, id), isNull(users.deletedAt)))
      .for('update')
      .limit(1);
    return row;
  },

  /** Live user rows (no joins) of these ids, locked for the rest of the transaction. */
  async lockManyByIds(executor: Executor, companyId: number, ids: number[]): Promise<UserRow[]> {
    return executor
      .select()
      .from(users)
      .where(and(eq(users.companyId, companyId), inArray(users.id, ids), isNull(users.deletedAt)))
      .for('update');
  },

  /**
   * Inserts many users in ONE statement: one array parameter per column, unnested into rows (a
   * 2,000-row chunk would otherwise need ~46,000 bind parameters, or a JSON document repeating
   * every key on every row). ON CONFLICT DO NOTHING on every unique index: a row lost to a
   * concurrent writer is just not returned, and the caller re-plans it. `withRows` also returns each inserted user as its flat row
   * (users.read.repo.ts, U2's columns with the type's and manager's names), read in the same
   * statement: U3 answers and announces the user from it instead of reading it twice more.
   */
  async insertMany(
    executor: Executor,
    companyId: number,
    rows: NewUser[],
    withRows = false,
  ): Promise<{ id: number; uniqueId: string; row?: UserFlatRow }[]> {
    if (rows.length === 0) return [];
    const column = <K extends keyof NewUser>(key: K) => pgArray(rows.map((row) => row[key] as string | number | boolean | null));
    const insert = sql`INSERT INTO users (company_id, employee_id, first_name, last_name, email, personal_email, unique_id, user_type_id,
            domain_id, title, department, office_location, base_salary, allowances, start_date, manager_id, bank_name,
            account_number, roles, is_active, onboarding_completed, onboarding_token, token_expires_at, bank_code)
          SELECT ${companyId}, v.employee_id, v.first_name, v.last_name, v.email, v.personal_email, v.unique_id, v.user_type_id,
            v.domain_id, v.title, v.department, v.office_location, v.base_salary, v.allowances, v.start_date, v.manager_id, v.bank_name,
            v.account_number, v.roles::text[], v.is_active, v.is_active, v.onboarding_token, v.token_expires_at, v.bank_code
          FROM unnest(${column('employeeId')}::text[], ${column('firstName')}::text[], ${column('lastName')}::text[],
            ${column('email')}::text[], ${column('personalEmail')}::text[], ${column('uniqueId')}::text[],
            ${column('userTypeId')}::int[], ${column('domainId')}::int[], ${column('title')}::text[], ${column('department')}::text[],
            ${column('officeLocation')}::text[], ${column('baseSalary')}::numeric[], ${column('allowances')}::numeric[],
            ${column('startDate')}::date[], ${column('managerId')}::int[], ${column('bankName')}::text[], ${column('accountNumber')}::text[],
            ${pgArray(rows.map((row) => pgArray(row.roles)))}::text[], ${column('isActive')}::boolean[],
            ${column('onboardingToken')}::text[], ${column('tokenExpiresAt')}::timestamptz[], ${column('bankCode')}::text[])
            AS v(employee_id, first_name, last_name, email, personal_email, unique_id, user_type_id, domain_id, title, department,
              office_location, base_salary, allowances, start_date, manager_id, bank_name, account_number, roles, is_active,
              onboarding_token, token_expires_at, bank_code)
          ON CONFLICT DO NOTHING`;
    if (!withRows) {
      const inserted = await queryNamed<{ id: number; unique_id: string }>(
        executor,
        'users_insert_many',
        sql`${insert} RETURNING id, unique_id`,
      );
      return inserted.map((row) => ({ id: row.id, uniqueId: row.unique_id }));
    }
    // The CTE is read under the table's name, so that the flat row's columns ("users"."email", …) are its columns.
    const inserted = await queryNamed<{ id: number; unique_id: string; row: UserFlatRow }>(
      executor,
      'users_insert_rows',
      sql`WITH inserted AS (${insert} RETURNING *)
          SELECT users.id, users.unique_id, ${flatUserRowSql} AS row FROM inserted AS users
          LEFT JOIN user_types ON user_types.id = users.user_type_id
          LEFT JOIN users AS manager ON manager.id = users.manager_id`,
    );
    return inserted.map((row) => ({ id: row.id, uniqueId: row.unique_id, row: row.row }));
  },

  /**
   * Applies many partial updates in ONE statement (U4, re-invites, bulk update). An absent field
   * keeps the stored value; the onboarding token is replaced only when `reset_token` is true.
   * Returns the ids that were updated (live users of this company only).
   */
  async patchMany(executor: Executor, companyId: number, patches: UserPatch[]): Promise<number[]> {
    if (patches.length === 0) return [];
    const rows = await queryRows<{ id: number }>(
      executor,
      sql`UPDATE users AS u SET
            first_name = COALESCE(v.first_name, u.first_name),
            last_name = COALESCE(v.last_name, u.last_name),
            email = COALESCE(v.email, u.email),
            personal_email = COALESCE(v.personal_email, u.personal_email),
            domain_id = COALESCE(v.domain_id, u.domain_id),
            user_type_id = COALESCE(v.user_type_id, u.user_type_id),
            title = COALESCE(v.title, u.title),
            department = COALESCE(v.department, u.department),
            office_location = COALESCE(v.office_location, u.office_location),
            base_salary = COALESCE(v.base_salary, u.base_salary),
            allowances = COALESCE(v.allowances, u.allowances),
            start_date = COALESCE(v.start_date, u.start_date),
            manager_id = COALESCE(v.manager_id, u.manager_id),
            bank_name = COALESCE(v.bank_name, u.bank_name),
            account_number = COALESCE(v.account_number, u.account_number),
            bank_code = CASE WHEN v.bank_identity_changed THEN v.bank_code ELSE u.bank_code END,
            account_name = CASE WHEN v.bank_identity_changed THEN NULL ELSE u.account_name END,
            bank_account_verified_at = CASE WHEN v.bank_identity_changed THEN NULL ELSE u.bank_account_verified_at END,
            password_hash = COALESCE(v.password_hash, u.password_hash),
            document_paths = COALESCE(v.document_paths, u.document_paths),
            roles = CASE WHEN v.roles IS NULL THEN u.roles ELSE ARRAY(SELECT jsonb_array_elements_text(v.roles)) END,
            is_active = COALESCE(v.is_active, u.is_active),
            onboarding_completed = COALESCE(v.onboarding_completed, u.onboarding_completed),
            onboarding_token = CASE WHEN v.reset_token THEN v.onboarding_token ELSE u.onboarding_token END,
            token_expires_at = CASE WHEN v.reset_token THEN v.token_expires_at ELSE u.token_expires_at END,
            updated_at = now()
          FROM jsonb_to_recordset(${JSON.stringify(patches)}::jsonb) AS v(
            id int, first_name text, last_name text, email text, personal_email text, domain_id int, user_type_id int,
            title text, department text, office_location text, base_salary numeric, allowances numeric, start_date date,
            manager_id int, bank_name text, account_number text, password_hash text, document_paths jsonb, roles jsonb,
            is_active boolean, onboarding_completed boolean, reset_token boolean, onboarding_token text, token_expires_at timestamptz,
            bank_code text, bank_identity_changed boolean)
          WHERE u.id = v.id AND u.company_id = ${companyId} AND u.deleted_at IS NULL
          RETURNING u.id`,
    );
    return rows.map((row) => row.id);
  },
};

/** One row of `patchMany`; snake_case because it is shipped to PostgreSQL as JSON. */
export interface UserPatch {
  id: number;
  first_name?: string;
  last_name?: string;
  email?: string;
  personal_email?: string;
  domain_id?: number;
  user_type_id?: number;
  title?: string;
  department?: string;
  office_location?: string;
  base_salary?: string;
  allowances?: string;
  start_date?: string;
  manager_id?: number;
  bank_name?: string;
  account_number?: string;
  /** Written (null included) only with bank_identity_changed, which also clears the verification. */
  bank_code?: string | null;
  bank_identity_changed?: boolean;
  password_hash?: string;
  document_paths?: string[];
  roles?: string[];
  is_active?: boolean;
  onboarding_completed?: boolean;
  reset_token?: boolean;
  onboarding_token?: string | null;
  token_expires_at?: string | null;
}
