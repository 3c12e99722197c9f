// P1's page (unfiltered, or of one run) as the JSON texts of its paystubs, each kept from the first
// read after its last change (paystub_listed_texts, migrations/0272_paystub_listed_texts.sql).
//
// Writing a paystub's text (paystubs.json.repo.ts) was about two thirds of PostgreSQL's CPU per page,
// though a paystub's text changes only when the paystub, its items or its records do. So a page
// first reads the kept texts, each joined to its user's text, written now (the user is not the
// paystub's: is_active depends on the day, and a user's edit does not stamp their paystubs). A
// paystub without a usable kept text (none yet, changed since, or written by other code) has its
// parts written by a second statement, is answered from them, and is kept for the next read.
//
// A kept text is usable while its stamp is the paystub's listed_stamp and its format_key is this
// code's. The migration says what moves the stamp and why a text written from an older snapshot can
// never be used; here that means keeping needs no lock and no check beyond writing the stamp the
// parts were read with. FORMAT_KEY is a hash of the parts' statement: a change to how the text is
// written makes every kept text unusable, with no migration. A paystub that repays a loan is not
// kept (its balance after the repayment depends on the loan's other paystubs).
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { type Executor, hotReads } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import { namedStatement } from '../../db/prepared.js';
import { listedJson, listedText } from './paystubs.json.repo.js';
import { COMPANY_PAGE_IDS } from './paystubs.read.repo.js';
import { paystubsRepo } from './paystubs.repo.js';

const companyId = sql.placeholder('companyId');
const formatKey = sql.placeholder('formatKey');

/** The page's paystub `p` from its kept text `t` and its user's text, or null when `t` is not usable. */
const keptText = sql`CASE WHEN t.format_key = ${formatKey} AND t.stamp = p.listed_stamp
  THEN concat(t.head, ',"user":', ${listedJson.user}, ',"contribution":', t.contribution, '}') END`;

// The page's rows as paystubs.read.repo.ts reads them (same rows, same order, the total in the same
// statement): the ids first from the company's or the run's index, so that only the page's 20 rows
// are read, never the rows an OFFSET skips. Prepared on the hot-reads pool like theirs.
const preparedPage = namedStatement<PageRow>(
  'paystubs_page_kept',
  sql`SELECT p.id, ${keptText} AS paystub, (SELECT paystubs FROM paystub_counts WHERE company_id = ${companyId}) AS total
      FROM paystubs p LEFT JOIN paystub_listed_texts t ON t.paystub_id = p.id
      WHERE p.company_id = ${companyId} AND p.id = ANY(${COMPANY_PAGE_IDS})
      ORDER BY p.id DESC`,
);
const preparedRunPage = namedStatement<PageRow>(
  'paystubs_run_page_kept',
  sql`SELECT p.id, ${keptText} AS paystub,
        (SELECT sum(paystubs)::int FROM paystub_run_counts WHERE company_id = ${companyId} AND transaction_id = ${sql.placeholder('transactionId')}) AS total
      FROM paystubs p LEFT JOIN paystub_listed_texts t ON t.paystub_id = p.id
      WHERE p.company_id = ${companyId} AND p.id = ANY(ARRAY(SELECT q.id FROM paystubs q WHERE q.company_id = ${companyId}
        AND q.transaction_id = ${sql.placeholder('transactionId')} ORDER BY q.id DESC LIMIT ${sql.placeholder('limit')} OFFSET ${sql.placeholder('offset')}))
      ORDER BY p.id DESC`,
);

/** The parts of these paystubs' texts, with the stamp they were read at and whether they may be kept. */
const partsQuery = sql`SELECT p.id, p.listed_stamp AS stamp, ${listedJson.head} AS head, ${listedJson.user} AS "user",
      ${listedJson.contribution} AS contribution,
      NOT EXISTS (SELECT 1 FROM paystub_items i WHERE i.paystub_id = p.id AND i.company_id = p.company_id AND i.loan_id IS NOT NULL) AS keepable
    FROM paystubs p WHERE p.company_id = ${companyId} AND p.id = ANY(${sql.placeholder('ids')}::int[])`;
const preparedParts = namedStatement<PartsRow>('paystubs_listed_parts', partsQuery);

// Kept as read: a text replaces any other of its paystub (an older stamp or format, or the same text
// kept by a concurrent read), in id order. The join keeps texts of the company's paystubs only
// (paystubs are never deleted, so the foreign key cannot fail under it).
const preparedKeep = namedStatement<never>(
  'paystubs_listed_keep',
  sql`INSERT INTO paystub_listed_texts AS k (paystub_id, company_id, stamp, format_key, head, contribution)
      SELECT f.id, p.company_id, f.stamp, ${formatKey}, f.head, f.contribution
      FROM json_to_recordset(${sql.placeholder('texts')}::json) AS f(id integer, stamp bigint, head text, contribution text)
      JOIN paystubs p ON p.id = f.id AND p.company_id = ${companyId}
      ORDER BY f.id
      ON CONFLICT (paystub_id) DO UPDATE SET stamp = EXCLUDED.stamp, format_key = EXCLUDED.format_key, head = EXCLUDED.head,
        contribution = EXCLUDED.contribution`,
);

/**
 * Part of the format key beside the parts' statement, whose text the key hashes: raise it when the
 * texts change without that statement's text changing (json_number_wide, a migration's function).
 */
const FORMAT_VERSION = 1;
let formatKeyValue: number | undefined;
function currentFormatKey(): number {
  formatKeyValue ??= crypto
    .createHash('sha256')
    .update(`${FORMAT_VERSION}\n${new PgDialect().sqlToQuery(partsQuery).sql}`)
    .digest()
    .readInt32BE(0);
  return formatKeyValue;
}

interface PageRow {
  id: number;
  paystub: string | null;
  total: number | null;
}
interface PartsRow {
  id: number;
  stamp: number;
  head: string;
  user: string;
  contribution: string;
  keepable: boolean;
}

/** The texts of the page's paystubs without a usable kept one, written now and kept where they may be. */
async function writeMissing(executor: Executor, companyId: number, rows: PageRow[]): Promise<Map<number, string>> {
  const ids = rows.filter((row) => row.paystub === null).map((row) => row.id);
  const parts = await preparedParts(hotReads(executor), { companyId, ids: pgArray(ids) });
  const keep = parts.filter((part) => part.keepable).map(({ id, stamp, head, contribution }) => ({ id, stamp, head, contribution }));
  if (keep.length > 0) await preparedKeep(executor, { companyId, formatKey: currentFormatKey(), texts: JSON.stringify(keep) });
  return new Map(parts.map((part) => [part.id, listedText(part.head, part.user, part.contribution)]));
}

export const paystubsListedTextRepo = {
  /**
   * P1's page unfiltered (`transactionId` undefined) or of one run, as paystubsReadRepo.page reads
   * it, each paystub already the JSON text of its ListedPaystub. Other filters stay on the JS path
   * (paystubs.service.ts): as a dynamic statement this one would be planned on every request, and
   * its planning costs more than the serialization it saves. A paystub gone between the two
   * statements (none is ever deleted) would be left out of the page.
   */
  async page(
    executor: Executor,
    companyId: number,
    transactionId: string | undefined,
    offset: number,
    limit: number,
  ): Promise<{ paystubs: string[]; total: number }> {
    const values = { companyId, formatKey: currentFormatKey(), offset, limit };
    const rows =
      transactionId === undefined
        ? await preparedPage(hotReads(executor), values)
        : await preparedRunPage(hotReads(executor), { ...values, transactionId });
    const written = rows.some((row) => row.paystub === null) ? await writeMissing(executor, companyId, rows) : undefined;
    const paystubs: string[] = [];
    for (const row of rows) {
      const text = row.paystub ?? written?.get(row.id);
      if (text !== undefined) paystubs.push(text);
    }
    const total = rows[0]?.total;
    return { paystubs, total: total ?? (await paystubsRepo.count(executor, companyId, { transactionId })) };
  },
};
