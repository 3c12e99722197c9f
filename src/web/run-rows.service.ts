// The rows of the console's Payroll table (payroll-runs-list.view.ts), each drawn once per version of
// its run: as for the Employees table (employee-rows.service.ts), a view first reads its runs' places
// (id and row version, db/row-version.ts, with the total) and takes each row this instance drew at
// that version; when one is missing, the page is read and drawn as before, and its rows are kept.
// What a row shows (the kind, the period, the status, the stored totals, the creation instant in
// UTC) is all on the run's row. A row is used only under the id and version the company's own page
// reads, so it goes back only to that company.
import type { RunOrder } from '../modules/payroll-runs/index.js';
import { createKeptTexts, type KeptTextLimits, keptOrDrawn } from '../platform/kept-texts.js';
import type { Html } from './html.view.js';
import { runRow } from './payroll-runs-list.view.js';
import type { WebContext } from './web.routes.js';

/** Rows kept per instance: about 700 characters each. */
export const RUN_ROW_LIMITS: KeptTextLimits = { entries: 5_000, chars: 4 * 1024 * 1024 };

export function createRunRows(runs: WebContext['services']['payrollRuns']['runs']) {
  const kept = createKeptTexts<string, { version: string; value: Html }>(RUN_ROW_LIMITS, (row) => row.value.value.length);

  /** The page's rows in `order`, and the last page. */
  return async function runRows(
    companyId: number,
    page: number,
    perPage: number,
    order: RunOrder,
  ): Promise<{ rows: Html[]; lastPage: number }> {
    const { places, lastPage } = await runs.listedPlaces(companyId, page, perPage, order);
    const read = async () => (await runs.listed(companyId, page, perPage, order)).runs;
    return { rows: await keptOrDrawn(kept, places, read, (run) => run.id, runRow), lastPage };
  };
}
