// The rows of the console's Employees table (employees-list.view.ts), each drawn once per version of
// what it shows. Drawing twenty-five rows (the row's fields parsed from the page's statement, the
// salary's naira text, every value escaped) was a sixth of the server's CPU for the page
// (docs/benchmarks.md, "The console's rows kept"). So the table's first view and its pages
// (no search, no status, by employee number: isListedView) first read their users' places (id and
// the version of their row and their type's, users.read.repo.ts), and take each row this instance
// drew at that version on the same Lagos day (the status badges depend on the day); when one is
// missing, the page is read and drawn as before, and its rows are kept. A search, a status or
// another sort draws its rows every time.
//
// A row is used only under the id and version the company's own page reads, so it goes back only to
// that company; a version names one state of the user's row and type (db/row-version.ts).
import { isListedView, type UserSearch } from '../modules/users/index.js';
import { lagosDate } from '../platform/format.js';
import { createKeptTexts, type KeptTextLimits, keptOrDrawn } from '../platform/kept-texts.js';
import { employeeRow } from './employees-list.view.js';
import type { Html } from './html.view.js';
import type { WebContext } from './web.routes.js';

/** Rows kept per instance: about 600 characters each. */
export const EMPLOYEE_ROW_LIMITS: KeptTextLimits = { entries: 5_000, chars: 4 * 1024 * 1024 };

/** `today` gives the Lagos day (a test's own clock). */
export function createEmployeeRows(userSearch: WebContext['services']['users']['search'], today: () => string = lagosDate) {
  const kept = createKeptTexts<number, { version: string; value: Html }>(EMPLOYEE_ROW_LIMITS, (row) => row.value.value.length);

  /** The page's rows and the search's total. */
  return async function employeeRows(companyId: number, input: UserSearch): Promise<{ rows: Html[]; total: number }> {
    // One Lagos day for the whole table: every row's badges agree, and the day is read once.
    const day = today();
    if (!isListedView(input)) {
      const { users, total } = await userSearch.search(companyId, input);
      return { rows: users.map((user) => employeeRow(user, day)), total };
    }
    const { places, total } = await userSearch.listedPlaces(companyId, input.offset, input.limit);
    const atToday = places.map((place) => ({ id: place.id, version: `${place.version}@${day}` }));
    const rows = await keptOrDrawn(
      kept,
      atToday,
      async () => (await userSearch.search(companyId, input)).users,
      (user) => user.id,
      (user) => employeeRow(user, day),
    );
    return { rows, total };
  };
}
