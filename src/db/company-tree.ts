// The `created_by` company tree (docs/reference.md, "Common rules"), in one place for
// platform/tenancy.ts and the companies feature: both ask "is this company below that one?", and S1
// and the console list a company with everything below it. Walks stop at 64 levels, so a cycle
// cannot loop forever.
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from './client.js';

export type CompanyRelation = 'self' | 'descendant' | 'other' | 'missing';

/**
 * How `targetId` stands to `ancestorId`: itself, strictly below it, an existing company elsewhere,
 * or no company at all. The walk goes up from the target, so it costs the depth of the tree, not
 * its size; one statement.
 */
export async function companyRelation(executor: Executor, ancestorId: number, targetId: number): Promise<CompanyRelation> {
  if (ancestorId === targetId) return 'self';
  const rows = await queryRows<{ descendant: boolean }>(
    executor,
    sql`WITH RECURSIVE chain(id, created_by, depth) AS (
          SELECT id, created_by, 0 FROM companies WHERE id = ${targetId}
          UNION ALL
          SELECT c.id, c.created_by, chain.depth + 1 FROM companies c JOIN chain ON c.id = chain.created_by
          WHERE chain.depth < 64
        )
        SELECT bool_or(id = ${ancestorId}) AS descendant FROM chain HAVING count(*) > 0`,
  );
  if (rows.length === 0) return 'missing';
  return rows[0].descendant ? 'descendant' : 'other';
}

/** Ids of the company and every company below it, ordered by id. */
export async function companyTreeIds(executor: Executor, companyId: number): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    executor,
    sql`WITH RECURSIVE tree(id, depth) AS (
          SELECT id, 0 FROM companies WHERE id = ${companyId}
          UNION ALL
          SELECT c.id, tree.depth + 1 FROM companies c JOIN tree ON c.created_by = tree.id WHERE tree.depth < 64
        ) SELECT id FROM tree ORDER BY id`,
  );
  return rows.map((row) => row.id);
}
