// The one statement that writes users' statutory fields (users.statutory-fields.validation.ts), for a batch
// of created or updated users, in the caller's transaction. Separate from usersRepo.patchMany
// because these fields can be cleared (null = unknown), where a patch's null means "unchanged".
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../../db/client.js';
import { STATUTORY_FIELDS, type StatutoryValues } from './users.statutory-fields.validation.js';

const SQL_TYPES: Record<string, string> = { money: 'numeric', bool: 'boolean' };

// Column names come from the constant table above, never from input. A reason for a pension
// exemption is kept only while the exemption holds: writing pension_exempt false clears it, whatever
// path wrote it (users.statutory-fields.validation.ts settlePensionExemption says the same to the API).
const assignments: SQL[] = STATUTORY_FIELDS.map(({ field, kind }) =>
  sql.raw(
    `${field} = CASE ${field === 'pension_exempt_reason' ? `WHEN (v.data ->> 'pension_exempt')::boolean IS FALSE THEN NULL ` : ''}WHEN v.data -> '${field}' IS NULL THEN u.${field} ELSE (v.data ->> '${field}')::${SQL_TYPES[kind] ?? 'text'} END`,
  ),
);

export const statutoryRepo = {
  /**
   * Each row's given fields (a key whose value is null clears the field; an absent key keeps it).
   * Rows without any field are skipped; nothing at all is one statement fewer. Returns the ids written.
   */
  async writeMany(executor: Executor, companyId: number, rows: { id: number; values: StatutoryValues }[]): Promise<number[]> {
    const given = rows.filter((row) => Object.keys(row.values).length > 0).map((row) => ({ id: row.id, data: row.values }));
    if (given.length === 0) return [];
    const written = await queryRows<{ id: number }>(
      executor,
      sql`UPDATE users AS u SET ${sql.join(assignments, sql`, `)}, updated_at = now()
          FROM jsonb_to_recordset(${JSON.stringify(given)}::jsonb) AS v(id int, data jsonb)
          WHERE u.id = v.id AND u.company_id = ${companyId} AND u.deleted_at IS NULL
          RETURNING u.id`,
    );
    return written.map((row) => row.id);
  },
};
