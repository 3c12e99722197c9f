// GET /api/loans's page as the JSON text it sends. Parsing twenty loans' rows and serializing them
// was most of what the page cost the server once its total was a counter (0.40 ms of its CPU a page:
// docs/benchmarks.md, "Loans counted once"). A loan's text depends on its row alone, so each instance
// keeps it with the row's version (db/row-version.ts: its xmin and updated_at), and a page first reads
// only its loans' ids and versions with its total: when every loan is kept at its version, that is
// the whole read; otherwise the page is read again with its rows (one snapshot for all of them) and
// their texts are kept. The text is JSON.stringify of serializeLoan, which is what the route's
// serializer writes (loans.text.test.ts holds the two equal, byte for byte).
//
// A kept text is used only under its loan's id and version as the company's own page reads them,
// so it goes back only to that company. A version names one state of the row: db/row-version.ts says why,
// failovers and restores included.
import type { Db } from '../../db/client.js';
import { createKeptTexts, type KeptTextLimits, keptAtVersions } from '../../platform/kept-texts.js';
import { type LoanFilters, loansRepo } from './loans.repo.js';
import { serializeLoan } from './loans.serializer.js';

/** Loans' texts kept per instance: about 500 bytes each. */
export const LOAN_TEXT_LIMITS: KeptTextLimits = { entries: 10_000, chars: 8 * 1024 * 1024 };

type KeptLoan = { version: string; text: string };

export function createLoanTexts(db: Db) {
  const kept = createKeptTexts<number, KeptLoan>(LOAN_TEXT_LIMITS, (loan) => loan.text.length);

  /** The page's loans as text, newest first, and the filter's total. */
  return async function loanTexts(companyId: number, filters: LoanFilters, limit: number, offset: number) {
    const places = await loansRepo.places(db, companyId, filters, limit, offset);
    const found = keptAtVersions(kept, places.rows);
    if (found) return { total: places.total, texts: found.map((loan) => loan.text) };
    const { total, rows } = await loansRepo.page(db, companyId, filters, limit, offset);
    return {
      total,
      texts: rows.map((row) => {
        const text = JSON.stringify(serializeLoan(row));
        kept.keep(row.id, { version: row.version, text });
        return text;
      }),
    };
  };
}
