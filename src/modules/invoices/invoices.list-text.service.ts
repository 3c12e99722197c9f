// I1's common page (no filter, newest first) as the JSON text it sends. Each invoice's text depends
// on its row alone, so each instance keeps it with the row's version (db/row-version.ts), and a page first reads
// only its invoices' ids and versions with the total (invoices.list.repo.ts): when every invoice is
// kept at its version, that is the whole read; otherwise the page is read again with its rows (one
// snapshot for all of them) and their texts kept. The text is JSON.stringify of serializeInvoice, what
// the route's serializer writes (invoices.text.test.ts holds the two equal, byte for byte). Other
// filters and sorts answer the object as before.
//
// A kept text is used only under its invoice's id and version as the company's own page reads them,
// so it goes back only to that company. A version names one state of the row: db/row-version.ts says why,
// failovers and restores included.
import type { Db } from '../../db/client.js';
import { createKeptTexts, type KeptTextLimits, keptAtVersions } from '../../platform/kept-texts.js';
import { lastPageOf, pageOffset } from '../../platform/paginator.js';
import { invoicePlacesRepo } from './invoices.list.repo.js';
import { invoicesRepo } from './invoices.repo.js';
import { serializeInvoice } from './invoices.serializer.js';
import { type ListQuery, validateListQuery } from './invoices.validation.js';

/** Invoices' texts kept per instance: about 1 KB each. */
export const INVOICE_TEXT_LIMITS: KeptTextLimits = { entries: 10_000, chars: 16 * 1024 * 1024 };

export const INVOICES_LISTED = 'Invoices retrieved successfully.';

type KeptInvoice = { version: string; text: string };

export function createInvoiceListForApi<T>(db: Db, list: (companyId: number, query: ListQuery) => Promise<T>) {
  const kept = createKeptTexts<number, KeptInvoice>(INVOICE_TEXT_LIMITS, (invoice) => invoice.text.length);

  async function texts(companyId: number, offset: number, limit: number): Promise<{ texts: string[]; total?: number }> {
    const places = await invoicePlacesRepo.places(db, companyId, offset, limit);
    const found = keptAtVersions(kept, places);
    if (found) return { texts: found.map((invoice) => invoice.text), total: places[0]?.total };
    const { rows, total } = await invoicesRepo.list(db, companyId, { sort: 'created_at', order: 'desc', offset, limit });
    const written = rows.map((row) => {
      const text = JSON.stringify(serializeInvoice(row));
      if (row.version !== undefined) kept.keep(row.id, { version: row.version, text });
      return text;
    });
    return { texts: written, total };
  }

  /** I1's answer for the common page, as text. */
  async function listText(companyId: number, page: number, perPage: number): Promise<string> {
    const found = await texts(companyId, pageOffset(page, perPage), perPage);
    // Past the end no place carries the total: the page's own statement counts.
    const total = found.total ?? (await invoicesRepo.list(db, companyId, { sort: 'created_at', order: 'desc', offset: 0, limit: 1 })).total;
    const meta = { current_page: page, per_page: perPage, total, last_page: lastPageOf(total, perPage) };
    return `{"message":${JSON.stringify(INVOICES_LISTED)},"invoices":[${found.texts.join(',')}],"meta":${JSON.stringify(meta)}}`;
  }

  /** I1: the common page (no filter, newest first) as text, any other as `list`'s object. */
  return async function listForApi(companyId: number, query: ListQuery): Promise<string | T> {
    const { sort, order } = validateListQuery(query);
    const common = !query.transaction_id && query.status === undefined && query.approval_status === undefined;
    return common && sort === 'created_at' && order === 'desc'
      ? listText(companyId, query.page ?? 1, query.per_page ?? 10)
      : list(companyId, query);
  };
}
