// The answer of every row-by-row CSV import (U8/U9 users, opening year-to-date): one shape, one set
// of dry-run messages, rows reported in file order (docs/users.md, "Bulk import").
import type { FieldErrors } from './errors.js';

export interface RowFailure {
  row: number;
  errors: FieldErrors;
}

/** What the import says when it saved something, per outcome; dry runs have their own fixed texts. */
export interface RowReportMessages {
  success: string;
  partial: string;
  failed: string;
}

const DRY_RUN_MESSAGES: RowReportMessages = {
  success: 'Dry run: every row is valid. Nothing was saved.',
  partial: 'Dry run: some rows are invalid. Nothing was saved.',
  failed: 'Dry run: no row is valid. Nothing was saved.',
};

export function rowReport<S extends { row: number }>(
  total: number,
  successes: S[],
  failures: RowFailure[],
  dryRun: boolean,
  messages: RowReportMessages,
) {
  const status = failures.length === 0 ? 'success' : successes.length === 0 ? 'failed' : 'partial';
  successes.sort((a, b) => a.row - b.row);
  failures.sort((a, b) => a.row - b.row);
  return {
    status,
    message: (dryRun ? DRY_RUN_MESSAGES : messages)[status],
    summary: `${successes.length} of ${total} rows succeeded.`,
    successes,
    failures,
  };
}

/**
 * Between chunks of an import the event loop gets a turn. On PGlite every query is in-process work
 * resolved through microtasks, so without this one import would starve every other request.
 */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
