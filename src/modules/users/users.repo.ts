// All SQL of the users feature. Every method takes the company id first: another company's user
// is simply not found.
import { aliasedTable, and, asc, count, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { users, userTypes } from '../../db/schema/index.js';

const manager = aliasedTable(users, 'manager');

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

export const usersRepo = {
  async list(executor: Executor, companyId: number, offset: number, limit: number): Promise<UserWithNames[]> {
    return selectUsers(executor)
      .where(and(eq(users.companyId, companyId), isNull(users.deletedAt)))
      .orderBy(asc(users.id))
      .limit(limit)
      .offset(offset);
  },

  async count(executor: Executor, companyId: number): Promise<number> {
    const [row] = await executor
      .select({ value: count() })
      .from(users)
      .where(and(eq(users.companyId, companyId), isNull(users.deletedAt)));
    return row.value;
  },

  async findById(executor: Executor, companyId: number, id: number): Promise<UserWithNames | undefined> {
    const [row] = await selectUsers(executor)
      .where(and(eq(users.companyId, companyId), eq(users.id, id), isNull(users.deletedAt)))
      .limit(1);
    return row;
  },
};
