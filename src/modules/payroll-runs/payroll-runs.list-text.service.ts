// The runs list's unfiltered page as the JSON text each run's PayrollRun is (for a PostgreSQL server:
// payroll-runs.list.service.ts, `listForApi`). PostgreSQL writes the part of a run's text that its
// row decides (payroll-runs.json.repo.ts), and writing it was most of what the page cost the
// database (0.48 ms a page of 20 against 0.22 for the page's places and counts alone, on the bench's
// company: docs/benchmarks.md, "The runs list's kept texts"). So each instance keeps that part with
// the row version it was written from (db/row-version.ts: its xmin and updated_at), and a page first
// reads its runs' places, versions and counts: when every run's kept part is of its version, that
// is the whole read; otherwise the page is read again with the texts (one snapshot for all its
// runs) and they are kept. Counts (paystubs by status) change without the run's row, so they are
// read on every page and written here.
//
// A kept part is used only under its run's id and version as the company's own page reads them, so
// it goes back only to that company. A version names one state of the row: db/row-version.ts says why,
// failovers and restores included.
import type { Db } from '../../db/client.js';
import { createKeptTexts, type KeptTextLimits, keptAtVersions } from '../../platform/kept-texts.js';
import { RUN_COUNT_STATUSES, type RunCounts, type RunTextParts, runsJsonRepo } from './payroll-runs.json.repo.js';

/** Runs' parts kept per instance: a few hundred pages of 20, about a MB each 1,000 runs. */
export const RUN_TEXT_LIMITS: KeptTextLimits = { entries: 5_000, chars: 8 * 1024 * 1024 };

type KeptRun = Pick<RunTextParts, 'version' | 'head' | 'skipped'>;

/** A run's whole text: the head its row decides, then counts and skipped, closing PayrollRun. */
function runText(parts: KeptRun, counts: RunCounts): string {
  let text = `${parts.head},"counts":{`;
  for (let i = 0; i < RUN_COUNT_STATUSES.length; i++) {
    const status = RUN_COUNT_STATUSES[i];
    text += `${i === 0 ? '' : ','}"${status}":${counts[status]}`;
  }
  return `${text}},"skipped":${parts.skipped}}`;
}

export function createRunTexts(db: Db) {
  const kept = createKeptTexts<string, KeptRun>(RUN_TEXT_LIMITS, (run) => run.head.length + run.skipped.length);

  /** The page's runs as text, newest first, and the company's total (undefined past the end). */
  return async function runTexts(companyId: number, offset: number, limit: number): Promise<{ runs: string[]; total?: number }> {
    const places = await runsJsonRepo.places(db, companyId, offset, limit);
    const parts = keptAtVersions(kept, places);
    if (parts) return { runs: places.map((place, i) => runText(parts[i], place)), total: places[0]?.total };
    const rows = await runsJsonRepo.texts(db, companyId, offset, limit);
    for (const row of rows) kept.keep(row.id, { version: row.version, head: row.head, skipped: row.skipped });
    return { runs: rows.map((row) => runText(row, row)), total: rows[0]?.total };
  };
}
