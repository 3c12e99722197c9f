// P1's page (unfiltered, or of one run) as the JSON texts of its paystubs: the SQL of the two reads
// paystubs.list-text.service.ts makes, and of the texts kept in the database
// (paystub_listed_texts, migrations/0272_paystub_listed_texts.sql).
//
// A page first reads its places: each paystub's id and version, and its user's id and version, with
// the total. An instance that keeps every one of those texts at those versions answers from them.
// Otherwise the parts of the paystubs it lacks are read: the head and contribution from the texts
// kept in the database where they are still the paystub's, written now where not (and kept there for
// the next reader: another instance, or this one after a restart), the user's text always written
// now. Writing a paystub's text was about two thirds of PostgreSQL's CPU per page, and writing its
// user most of the rest (docs/benchmarks.md, "P1's kept texts", "P1's texts kept by the instance").
//
// A text kept in the database is usable while its stamp is the paystub's listed_stamp and its
// format_key is this code's. The migration says what moves the stamp and why a text written from an
// older snapshot can never be used; here that means keeping needs no lock and no check beyond writing
// the stamp the parts were read with. FORMAT_KEY is a hash of the parts' statement: a change to how
// the text is written makes every kept text unusable, with no migration. A paystub that repays a
// loan is not kept (its balance after the repayment depends on the loan's other paystubs).
import crypto from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { type Executor, hotReads } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import { namedStatement } from '../../db/prepared.js';
import { rowVersion } from '../../db/row-version.js';
import { listedJson, userActiveToday } from './paystubs.json.repo.js';
import { COMPANY_PAGE_IDS } from './paystubs.read.repo.js';
import { paystubsRepo } from './paystubs.repo.js';

const companyId = sql.placeholder('companyId');
const formatKey = sql.placeholder('formatKey');

// The paystub `p`'s version: its row's (db/row-version.ts), with the stamp that every change to its
// items and records moves (the migration's triggers), which updated_at does not.
const paystubVersion = sql`(${rowVersion('p')} || '/' || p.listed_stamp::text)`;
// The version of the text of `p`'s user `u` (null when the paystub's user is not the company's: the
// text is then null): the user's row, whether they are active today (the text's is_active depends on
// the day) and the row of their type, whose name the text shows.
const userVersion = sql`CASE WHEN u.id IS NOT NULL THEN ${rowVersion('u')} || CASE WHEN ${userActiveToday} THEN '/a' ELSE '/i' END
  || CASE WHEN u.user_type_id IS NOT NULL THEN '/' || coalesce((SELECT ut.xmin::text FROM user_types ut WHERE ut.id = u.user_type_id), '-') ELSE '' END END`;
const withUser = sql`FROM paystubs p LEFT JOIN users u ON u.id = p.user_id AND u.company_id = p.company_id`;
const placeColumns = sql`p.id, ${paystubVersion} AS version, p.user_id AS "userId", ${userVersion} AS "userVersion"`;

// The page's rows as paystubs.read.repo.ts reads them (same rows, same order, the total in the same
// statement): the ids first from the company's or the run's index, so that only the page's 20 rows
// are read, never the rows an OFFSET skips. Prepared on the hot-reads pool like theirs.
const RUN_PAGE_IDS = sql`ARRAY(SELECT q.id FROM paystubs q WHERE q.company_id = ${companyId}
  AND q.transaction_id = ${sql.placeholder('transactionId')} ORDER BY q.id DESC LIMIT ${sql.placeholder('limit')} OFFSET ${sql.placeholder('offset')})`;
const companyTotal = sql`(SELECT paystubs FROM paystub_counts WHERE company_id = ${companyId})`;
const runTotal = sql`(SELECT sum(paystubs)::int FROM paystub_run_counts WHERE company_id = ${companyId} AND transaction_id = ${sql.placeholder('transactionId')})`;
/** A page's statement in both its forms, the company's page and one run's: `columns` with the page's total, `from` its tables. */
function pageStatements<T>(name: string, columns: SQL, from: SQL): PageStatements<T> {
  const of = (prefix: string, total: SQL, ids: SQL) =>
    namedStatement<T & { total: number | null }>(
      `paystubs_${prefix}_${name}`,
      sql`SELECT ${columns}, ${total} AS total ${from} WHERE p.company_id = ${companyId} AND p.id = ANY(${ids}) ORDER BY p.id DESC`,
    );
  return { company: of('page', companyTotal, COMPANY_PAGE_IDS), run: of('run_page', runTotal, RUN_PAGE_IDS) };
}
const placeStatements = pageStatements<PaystubPlace>('places', placeColumns, withUser);

/** Whether `p`'s text kept in the database (`t`) is still the paystub's, in this code's format. */
const usable = sql`(t.format_key = ${formatKey} AND t.stamp = p.listed_stamp)`;
/** The parts of paystubs' texts, with the versions and stamp they were read at, and whether they may be kept. */
const partsColumns = sql`${placeColumns}, p.listed_stamp AS stamp,
      CASE WHEN ${usable} THEN t.head ELSE ${listedJson.head} END AS head, ${listedJson.user} AS "user",
      CASE WHEN ${usable} THEN t.contribution ELSE ${listedJson.contribution} END AS contribution,
      coalesce(${usable}, false) AS "keptAlready",
      NOT EXISTS (SELECT 1 FROM paystub_items i WHERE i.paystub_id = p.id AND i.company_id = p.company_id AND i.loan_id IS NOT NULL) AS keepable`;
const withParts = sql`${withUser} LEFT JOIN paystub_listed_texts t ON t.paystub_id = p.id`;
const partsQuery = sql`SELECT ${partsColumns} ${withParts} WHERE p.company_id = ${companyId} AND p.id = ANY(${sql.placeholder('ids')}::int[])`;
const preparedParts = namedStatement<ListedParts>('paystubs_listed_parts', partsQuery);
// The whole page's parts in one statement, as the places read it.
const pagePartsStatements = pageStatements<ListedParts>('parts', partsColumns, withParts);

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

/** A paystub's place on a page: its version, and its user's (null: the text's user is null). */
export interface PaystubPlace {
  id: number;
  version: string;
  userId: number;
  userVersion: string | null;
}
type PageStatements<T> = Record<'company' | 'run', ReturnType<typeof namedStatement<T & { total: number | null }>>>;
/** A paystub's text in its three parts (paystubs.json.repo.ts, listedText), at the versions of its place. */
export interface ListedParts extends PaystubPlace {
  stamp: number;
  head: string;
  user: string;
  contribution: string;
  keptAlready: boolean;
  keepable: boolean;
}

export const paystubsListedTextRepo = {
  /**
   * P1's page unfiltered (`transactionId` undefined) or of one run, as paystubsReadRepo.page reads
   * it: its places, newest first, and the total. Other filters stay on the JS path
   * (paystubs.service.ts): as a dynamic statement this one would be planned on every request, and
   * its planning costs more than the serialization it saves.
   */
  async places(executor: Executor, companyId: number, page: PageWindow): Promise<{ places: PaystubPlace[]; total: number }> {
    const { rows, total } = await pageRead(executor, companyId, page, placeStatements, {});
    return { places: rows.map(({ id, version, userId, userVersion }) => ({ id, version, userId, userVersion })), total };
  },

  /** The same page's places with their parts in one statement (for a page the instance has not read), kept as `parts` keeps them. */
  async pageParts(executor: Executor, companyId: number, page: PageWindow): Promise<{ parts: ListedParts[]; total: number }> {
    const { rows, total } = await pageRead(executor, companyId, page, pagePartsStatements, { formatKey: currentFormatKey() });
    await keepWritten(executor, companyId, rows);
    return { parts: rows, total };
  },

  /**
   * The parts of these paystubs' texts (any order; a paystub not the company's is left out), those
   * written now kept in the database where they may be.
   */
  async parts(executor: Executor, companyId: number, ids: readonly number[]): Promise<ListedParts[]> {
    const parts = await preparedParts(hotReads(executor), { companyId, formatKey: currentFormatKey(), ids: pgArray(ids) });
    await keepWritten(executor, companyId, parts);
    return parts;
  },
};

/** A page of P1: unfiltered (`transactionId` undefined) or of one run. */
export interface PageWindow {
  transactionId: string | undefined;
  offset: number;
  limit: number;
}

/**
 * The page through its statement on the hot-reads pool (the company's, or the run's), and its total:
 * carried by its rows, or counted when it has none.
 */
async function pageRead<T>(
  executor: Executor,
  companyId: number,
  { transactionId, offset, limit }: PageWindow,
  statements: PageStatements<T>,
  values: Record<string, unknown>,
): Promise<{ rows: (T & { total: number | null })[]; total: number }> {
  const common = { ...values, companyId, offset, limit };
  const rows =
    transactionId === undefined
      ? await statements.company(hotReads(executor), common)
      : await statements.run(hotReads(executor), { ...common, transactionId });
  return { rows, total: rows[0]?.total ?? (await paystubsRepo.count(executor, companyId, { transactionId })) };
}

/** Keeps in the database the texts just written that may be kept. */
async function keepWritten(executor: Executor, companyId: number, parts: readonly ListedParts[]): Promise<void> {
  const keep = parts
    .filter((part) => part.keepable && !part.keptAlready)
    .map(({ id, stamp, head, contribution }) => ({ id, stamp, head, contribution }));
  if (keep.length > 0) await preparedKeep(executor, { companyId, formatKey: currentFormatKey(), texts: JSON.stringify(keep) });
}
