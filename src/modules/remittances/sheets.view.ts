// One schedule as CSV or XLSX (docs/compliance.md). Both formats come from the same Sheet: a header
// block (employer, its ID at the authority, the period), the column titles, the rows and a totals
// row. Every text cell goes through `neutralise`, the service's one formula-injection rule
// (platform/csv.ts: a formula character at the start or after a separator); money stays exact:
// decimal text in CSV, numbers with a number format in XLSX.
import { type CsvCell, csvText, neutraliseCell } from '../../platform/csv.js';
import { type Kobo, koboToNumber, koboToString } from '../../tax-engine/money.js';

export type Cell = string | null | { kobo: Kobo } | { int: number };
export interface Column {
  title: string;
  kind: 'text' | 'money' | 'int';
}
export interface Sheet {
  /** File name without extension, e.g. `paye-LA-2026-03`. */
  name: string;
  title: string;
  header: [string, string][];
  columns: Column[];
  rows: Cell[][];
}

/** A text cell that a spreadsheet would read as a formula, made text (OWASP CSV injection). */
export const neutralise = neutraliseCell;

/** The totals row: the sum of every money column, to the kobo. */
function totalsRow(sheet: Sheet): Cell[] {
  return sheet.columns.map((column, index) => {
    if (index === 0) return 'Total';
    if (column.kind !== 'money') return null;
    let sum = 0n;
    for (const row of sheet.rows) {
      const cell = row[index];
      if (cell && typeof cell === 'object' && 'kobo' in cell) sum += cell.kobo;
    }
    return { kobo: sum };
  });
}

const csvCell = (cell: Cell): CsvCell => {
  if (cell === null || typeof cell === 'string') return cell;
  return { number: 'kobo' in cell ? koboToString(cell.kobo) : String(cell.int) };
};

export function toCsv(sheet: Sheet): string {
  return csvText([
    [sheet.title],
    ...sheet.header,
    [],
    sheet.columns.map((column) => column.title),
    ...[...sheet.rows, totalsRow(sheet)].map((row) => row.map(csvCell)),
  ]);
}

const MONEY_FORMAT = '#,##0.00';

export async function toXlsx(sheet: Sheet): Promise<Buffer> {
  // Loaded at the first spreadsheet, not at start (docs/architecture.md, "Heavy libraries load at first use").
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  const worksheet = workbook.addWorksheet(sheet.title.slice(0, 31).replace(/[\\/?*[\]:]/g, ' '));
  worksheet.addRow([neutralise(sheet.title)]).font = { bold: true };
  for (const [label, value] of sheet.header) worksheet.addRow([neutralise(label), neutralise(value)]);
  worksheet.addRow([]);
  worksheet.addRow(sheet.columns.map((column) => neutralise(column.title))).font = { bold: true };
  for (const row of [...sheet.rows, totalsRow(sheet)]) {
    const added = worksheet.addRow(
      row.map((cell) => {
        if (cell === null) return null;
        if (typeof cell === 'string') return neutralise(cell);
        return 'kobo' in cell ? koboToNumber(cell.kobo) : cell.int;
      }),
    );
    sheet.columns.forEach((column, index) => {
      if (column.kind === 'money') added.getCell(index + 1).numFmt = MONEY_FORMAT;
    });
  }
  sheet.columns.forEach((column, index) => {
    worksheet.getColumn(index + 1).width = column.kind === 'text' ? 20 : 16;
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
