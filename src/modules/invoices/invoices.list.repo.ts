// I1's common page (no filter, newest first: invoices.repo.ts `list`) by its places only: each
// invoice's id and row version (db/row-version.ts: moved by every update, a soft delete included) with
// the page's total, for invoices.list-text.service.ts, which keeps each invoice's text by that
// version. The same order and index as the page itself (invoices_company_created_idx), a named
// statement on the hot-reads pool.
import { sql } from 'drizzle-orm';
import { type Executor, hotReads } from '../../db/client.js';
import { namedStatement } from '../../db/prepared.js';
import { rowVersion } from '../../db/row-version.js';

export interface InvoicePlace {
  id: number;
  version: string;
  total: number;
}

const companyId = sql.placeholder('companyId');
const preparedPlaces = namedStatement<InvoicePlace>(
  'invoices_page_places',
  sql`SELECT i.id, ${rowVersion('i')} AS version,
        (SELECT count(*)::int FROM invoices c WHERE c.company_id = ${companyId} AND c.deleted_at IS NULL) AS total
      FROM invoices i WHERE i.company_id = ${companyId} AND i.deleted_at IS NULL
      ORDER BY i.created_at DESC, i.id DESC LIMIT ${sql.placeholder('limit')} OFFSET ${sql.placeholder('offset')}`,
);

export const invoicePlacesRepo = {
  /** The common page's places, newest first; `total` on every row (none past the end). */
  places: (executor: Executor, companyId: number, offset: number, limit: number): Promise<InvoicePlace[]> =>
    preparedPlaces(hotReads(executor), { companyId, offset, limit }),
};
