// SQL of a company's own pay item types. Every method takes the company first and touches only its
// rows; the built-in types are in code, never here.
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import { payItemTypes } from '../../db/schema/index.js';
import type { NewPayItemType } from './pay-item-types.validation.js';

export type PayItemTypeRow = typeof payItemTypes.$inferSelect;

/** Serialises the creates of one company (the cap on its types is counted, then kept). */
const CREATE_LOCK = 40_021;

export const payItemTypesRepo = {
  list(executor: Executor, companyId: number): Promise<PayItemTypeRow[]> {
    return executor.select().from(payItemTypes).where(eq(payItemTypes.companyId, companyId)).orderBy(asc(payItemTypes.code));
  },

  /** The company's types among `codes` (already filtered to codes that can exist): one statement. */
  byCodes(executor: Executor, companyId: number, codes: readonly string[]): Promise<PayItemTypeRow[]> {
    return executor
      .select()
      .from(payItemTypes)
      .where(and(eq(payItemTypes.companyId, companyId), sql`${payItemTypes.code} = ANY(${pgArray(codes)}::text[])`));
  },

  async find(executor: Executor, companyId: number, id: number): Promise<PayItemTypeRow | undefined> {
    const [row] = await executor
      .select()
      .from(payItemTypes)
      .where(and(eq(payItemTypes.companyId, companyId), eq(payItemTypes.id, id)));
    return row;
  },

  /** Takes the company's create lock (until the transaction ends) and counts its types. */
  async lockAndCount(tx: Executor, companyId: number): Promise<number> {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${CREATE_LOCK}, ${companyId})`);
    const [row] = await tx.select({ n: count() }).from(payItemTypes).where(eq(payItemTypes.companyId, companyId));
    return Number(row.n);
  },

  /** The new row, or undefined when the company already has a type of that code. */
  async insert(tx: Executor, companyId: number, type: NewPayItemType): Promise<PayItemTypeRow | undefined> {
    const [row] = await tx
      .insert(payItemTypes)
      .values({ companyId, ...type })
      .onConflictDoNothing({ target: [payItemTypes.companyId, payItemTypes.code] })
      .returning();
    return row;
  },
};
