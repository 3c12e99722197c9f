// The one rule for every CSV the service writes (remittance schedules, annual returns, the users
// CSV templates): no cell may reach a spreadsheet as a formula (OWASP "CSV injection";
// docs/security.md, "Uploads, CSV and company data").
// - A text cell starting with = + - @ (also after leading spaces), a tab or a CR gets a leading
//   apostrophe, which spreadsheets show as text.
// - A separator (`,` `;` tab) followed, after optional spaces, by one of = + - @ gets an
//   apostrophe before that character: in a locale that separates cells with `;` (or a file read
//   as tab-separated), `x;=cmd|' /C calc'!A0` is two cells and the second one a formula; with
//   the apostrophe the second cell is text however the line is split (quoting alone would not do:
//   a reader splitting on `;` ignores quotes that do not open a cell). Other cells keep their bytes.
// Numbers (money, counts) are written as they are: `-5.00` is a number, not a formula.
import { stringify } from 'csv-stringify/sync';

/** A number written as is: decimal text only (`12`, `-5.00`). */
export interface CsvNumber {
  number: string;
}
export type CsvCell = string | null | CsvNumber;

const FORMULA_AT_START = /^(?:[ \u00a0]*[=+\-@]|[\t\r])/;
// Spaces only between the separator and the formula character (a tab is a separator itself):
// every space belongs to the run after one separator, so the scan stays linear.
const FORMULA_AFTER_SEPARATOR = /([,;\t][ \u00a0]*)([=+\-@])/g;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** A text cell as a spreadsheet must show it: never a formula, wherever it is split. */
export function neutraliseCell(text: string): string {
  const inside = text.replace(FORMULA_AFTER_SEPARATOR, "$1'$2");
  return FORMULA_AT_START.test(inside) ? `'${inside}` : inside;
}

const cellText = (cell: CsvCell): string => {
  if (cell === null) return '';
  if (typeof cell === 'string') return neutraliseCell(cell);
  if (!DECIMAL.test(cell.number)) throw new Error(`not a decimal number: ${cell.number}`);
  return cell.number;
};

/** CSV with every text cell neutralised; `\n` or CRLF line ends. */
export function csvText(records: readonly (readonly CsvCell[])[], lineEnd: '\n' | '\r\n' = '\n'): string {
  return stringify(
    records.map((record) => record.map(cellText)),
    { record_delimiter: lineEnd === '\n' ? 'unix' : 'windows' },
  );
}
