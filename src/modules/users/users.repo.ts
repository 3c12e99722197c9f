// The SQL of the user row every capability shares: a live user of the company by id (with its type's
// and manager's names), the same rows locked for a change, and the one batched UPDATE that both
// create (re-invites) and update apply. Every method takes the company id first: another
// company's user is simply not found. The capabilities' own statements sit in their folders:
// read/ (U1, U2, the console's search), create/ (the batched insert), lifecycle/, admins/, bank/.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import { preparedPerExecutor } from '../../db/prepared.js';
import { users, userTypes } from '../../db/schema/index.js';
import { usersReadRepo } from './read/users.read.repo.js';
import { manager } from './users.flat-row.repo.js';

const userColumns = {
  user: users,
  userTypeName: userTypes.name,
  managerFirstName: manager.firstName,
  managerLastName: manager.lastName,
};

export type UserRow = typeof users.$inferSelect;
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
// (src/db/prepared.ts). U1's page and U2 itself read flat rows (read/users.read.repo.ts).
const preparedFindById = preparedPerExecutor((executor) =>
  selectUsers(executor)
    .where(and(eq(users.companyId, sql.placeholder('companyId')), eq(users.id, sql.placeholder('id')), isNull(users.deletedAt)))
    .limit(1)
    .prepare('users_find_by_id'),
);
export const usersRepo = {
  // The company's live users, kept by triggers (migrations/0140_user_counts.sql) instead of counted:
  // one primary-key read whatever the company's size. No row: no user was ever written.
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
    return (
      executor
        .select()
        .from(users)
        .where(and(eq(users.companyId, companyId), inArray(users.id, ids), isNull(users.deletedAt)))
        // By id, the order every transaction locks users in (docs/payroll-runs.md, "Lock order").
        .orderBy(users.id)
        .for('update')
    );
  },

  /**
   * Applies many partial updates in ONE statement (U4, re-invites, bulk update). An absent field
   * keeps the stored value; the onboarding token is replaced only when `reset_token` is true.
   * Returns the ids that were updated (live users of this company only).
   */
  async patchMany(executor: Executor, companyId: number, patches: UserPatch[]): Promise<number[]> {
    if (patches.length === 0) return [];
    await lockHoldablePaystubs(
      executor,
      companyId,
      patches.filter((p) => p.account_number !== undefined || p.bank_identity_changed).map((p) => p.id),
    );
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

/**
 * Before a bank change's UPDATE: the users whose bank details it writes, then the paystubs its hold
 * may move (0186's trigger: unpaid and pinned), each by id. The trigger holds paystubs in the order
 * the UPDATE visits the users, and pay and cancel take a run's paystubs by id: without this a
 * batch of users racing a pay of their run deadlocked (docs/payroll-runs.md, "Lock order"). Once
 * the users are locked, no approval can pin more of their paystubs (it locks them FOR SHARE first),
 * so the trigger then moves only rows locked here and waits for nobody.
 */
async function lockHoldablePaystubs(executor: Executor, companyId: number, userIds: number[]): Promise<void> {
  if (userIds.length === 0) return;
  await executor.execute(
    sql`SELECT id FROM users WHERE company_id = ${companyId} AND id = ANY(${pgArray(userIds)}::int[]) ORDER BY id FOR NO KEY UPDATE`,
  );
  await executor.execute(
    sql`SELECT id FROM paystubs
        WHERE company_id = ${companyId} AND user_id = ANY(${pgArray(userIds)}::int[])
          AND status = 'unpaid' AND destination_pinned_at IS NOT NULL
        ORDER BY id FOR NO KEY UPDATE`,
  );
}

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
