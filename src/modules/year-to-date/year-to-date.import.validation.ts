// The CSV of POST /api/year-to-date/import (docs/payroll.md, "Opening year-to-date"): UTF-8 with or
// without BOM, a header row naming `email,year,gross_pay,taxable_pay,tax_withheld,employee_pension,
// nhf,nhis,months` in any order and case, at most 10,000 data rows in at most 5 MiB (U8's limits,
// docs/users.md). Whole-file problems refuse the file (422 under `year_to_date_csv`); a row's
// problems are that row's (year-to-date.validation.ts).
import { CsvError, parse } from 'csv-parse/sync';
import { invalid } from '../../platform/errors.js';
import type { UploadLimits } from '../users/index.js';
import { OPENING_FIELDS } from './year-to-date.validation.js';

export const MAX_ROWS = 10_000;
const MAX_CSV_BYTES = 5 * 1024 * 1024;
const FIELD = 'year_to_date_csv';

export const YTD_CSV_UPLOAD: UploadLimits = {
  field: FIELD,
  maxFiles: 1,
  maxFileBytes: MAX_CSV_BYTES,
  tooLarge: 'The year to date csv field must not be greater than 5120 kilobytes.',
  tooMany: 'The year to date csv field must be a single file.',
};

export const CSV_COLUMNS = ['email', 'year', ...OPENING_FIELDS] as const;

export interface YtdCsvRow {
  /** 1-based line of the file. */
  line: number;
  record: Record<string, string>;
}

const fileError = (message: string) => invalid({ [FIELD]: [message] });

export function parseYearToDateCsv(data: Buffer): YtdCsvRow[] {
  if (data.length === 0) throw fileError('The year to date csv file is empty.');
  if (data.length > MAX_CSV_BYTES) throw fileError(YTD_CSV_UPLOAD.tooLarge);
  if (data.includes(0)) throw fileError('The year to date csv field must be a file of type: csv, txt.');
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw fileError('The year to date csv file must be UTF-8 encoded.');
  }
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    parsed = parse(data, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: 64 * 1024,
      record_delimiter: ['\r\n', '\n', '\r'],
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    if (error instanceof CsvError) throw fileError(`The year to date csv file is not valid CSV: ${error.message}`);
    throw error;
  }
  const nonBlank = parsed.filter(({ record }) => record.some((cell) => cell.trim() !== ''));
  const [header, ...body] = nonBlank;
  if (!header) throw fileError('The year to date csv file contains no data rows.');
  const names = header.record.map((cell) => cell.trim().toLowerCase());
  const lacking = CSV_COLUMNS.filter((column) => !names.includes(column));
  if (lacking.length > 0) throw fileError(`The year to date csv file is missing the columns: ${lacking.join(', ')}.`);
  const unknown = names.filter((name) => !(CSV_COLUMNS as readonly string[]).includes(name));
  if (unknown.length > 0) throw fileError(`The year to date csv file has unknown columns: ${unknown.join(', ')}.`);
  if (new Set(names).size !== names.length) throw fileError('The year to date csv file has duplicate columns.');
  if (body.length === 0) throw fileError('The year to date csv file contains no data rows.');
  if (body.length > MAX_ROWS) throw fileError(`The year to date csv file must not contain more than ${MAX_ROWS} rows.`);
  return body.map(({ record, info }) => {
    const fields: Record<string, string> = {};
    names.forEach((name, index) => {
      if (record[index] !== undefined) fields[name] = record[index];
    });
    return { line: info.lines, record: fields };
  });
}
