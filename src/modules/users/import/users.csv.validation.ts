// CSV layout of U8/U9/U12/U13 (docs/users.md, "The users rules"): UTF-8 with or without BOM,
// CRLF/LF/CR, the instruction row optional, headers matched case-insensitively ("start_date
// (YYYY-MM-DD)" is "start_date"), at most 10,000 data rows. The parse is streamed (csv-parse) over
// the bounded upload; nothing is written until the whole file is known to be within the limits.
import { Readable } from 'node:stream';
import { CsvError, type Options, parse } from 'csv-parse';
import { csvText } from '../../../platform/csv.js';
import { type FieldErrors, invalid } from '../../../platform/errors.js';
import { STATUTORY_CSV_COLUMNS, STATUTORY_CSV_HEADER } from '../fields/users.statutory-fields.validation.js';
import type { UploadLimits } from './users.multipart.service.js';

export const MAX_ROWS = 10_000;
export const MAX_CSV_BYTES = 5 * 1024 * 1024;
const PARSE_SLICE_BYTES = 64 * 1024;
const MAX_RECORD_BYTES = 64 * 1024;
const TOO_LARGE = 'The users csv field must not be greater than 5120 kilobytes.';

/** U8/U9 take exactly one file of at most 5 MiB (users.multipart.service.ts refuses more before reading it). */
export const CSV_UPLOAD: UploadLimits = {
  field: 'users_csv',
  maxFiles: 1,
  maxFileBytes: MAX_CSV_BYTES,
  tooLarge: TOO_LARGE,
  tooMany: 'The users csv field must be a single file.',
};

export const INSTRUCTION_ROW =
  'Instructions: start_date must use the format YYYY-MM-DD; format the account_number column as text to keep leading zeros.';
export const IMPORT_HEADER = [
  'first_name',
  'last_name',
  'personal_email',
  'domain',
  'user_types',
  'title',
  'base_salary',
  'department',
  'allowances',
  'office_location',
  'start_date (YYYY-MM-DD)',
  'manager',
  'bank_name',
  'account_number',
  // New columns come last, so files made from the older template still read the same.
  'bank_code',
  ...STATUTORY_CSV_HEADER,
];
export const UPDATE_HEADER = ['email', ...IMPORT_HEADER];

/** The template bytes: instruction row, header row, CRLF line ends (RFC 4180), by the service's one CSV writer. */
export const templateCsv = (header: string[]) => csvText([[INSTRUCTION_ROW], header], '\r\n');

export type CsvKind = 'create' | 'update';

/**
 * CSV column (normalised) → request field of U3/U4. Aliases accept the JSON field names too.
 * A Map, not an object literal: a column named `constructor` or `toString` must be an unknown
 * column, not a lookup of Object.prototype.
 */
const COLUMN_FIELDS = new Map(
  Object.entries({
    email: 'email',
    first_name: 'first_name',
    last_name: 'last_name',
    personal_email: 'personal_email',
    domain: 'domain_name',
    domain_name: 'domain_name',
    user_types: 'user_types',
    user_type: 'user_types',
    title: 'title',
    base_salary: 'base_salary',
    department: 'department',
    allowances: 'allowances',
    office_location: 'office_location',
    start_date: 'start_date',
    manager: 'manager_email',
    manager_email: 'manager_email',
    bank_name: 'bank_name',
    account_number: 'account_number',
    bank_code: 'bank_code',
    ...STATUTORY_CSV_COLUMNS,
  }),
);
const FIELD_COLUMNS: Record<string, string> = { domain_name: 'domain', manager_email: 'manager' };

const REQUIRED: Record<CsvKind, string[]> = {
  create: ['first_name', 'last_name', 'personal_email', 'domain_name', 'user_types', 'start_date'],
  update: ['email'],
};

/** Row errors are reported under the file's column names (`domain`, `manager`). */
export function toColumnErrors(errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [field, messages] of Object.entries(errors)) {
    const column = FIELD_COLUMNS[field] ?? field;
    out[column] = messages.map((m) => (FIELD_COLUMNS[field] ? m.replace(field.replace(/_/g, ' '), column) : m));
  }
  return out;
}

/**
 * `Start_Date (YYYY-MM-DD)` → `start_date`: a trailing parenthesised note is dropped, inner blanks
 * become `_`. Plain string scans, linear in the cell: the old `\s*\(.*\)\s*$` backtracked from
 * every `(` and a first line of 60,000 `(` blocked the event loop for seconds (quadratic).
 */
function normaliseHeader(header: string): string {
  let name = header.trim().toLowerCase();
  const open = name.indexOf('(');
  if (open !== -1 && name.endsWith(')')) name = name.slice(0, open).trimEnd();
  return name.replace(/\s+/g, '_');
}

const fileError = (message: string) => invalid({ users_csv: [message] });

export interface CsvRow {
  /** 1-based line number in the file where the record starts. */
  line: number;
  record: Record<string, string>;
}

export async function parseUsersCsv(data: Buffer, kind: CsvKind): Promise<CsvRow[]> {
  if (data.length === 0) throw fileError('The users csv file is empty.');
  if (data.length > MAX_CSV_BYTES) throw fileError(TOO_LARGE);
  if (data.includes(0)) throw fileError('The users csv field must be a file of type: csv, txt.');
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw fileError('The users csv file must be UTF-8 encoded.');
  }
  let body = data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf ? data.subarray(3) : data;
  // An instruction row (one cell) before the header would make csv-parse build an error object
  // for every following record (column count differs from the first record's): cut it off here.
  let firstLine = 1;
  const end = firstBreak(body);
  if (
    end > 0 &&
    !body
      .subarray(0, end)
      .toString('utf8')
      .split(',')
      .map((cell) => COLUMN_FIELDS.get(normaliseHeader(cell.replace(/"/g, ''))))
      .includes(REQUIRED[kind][0])
  ) {
    body = body.subarray(body[end] === 0x0d && body[end + 1] === 0x0a ? end + 2 : end + 1);
    firstLine = 2;
  }

  // Line numbers: a record starts where the previous one ended, after any blank lines.
  let offset = 0;
  let line = firstLine;
  const isBreak = (i: number) => body[i] === 0x0a || (body[i] === 0x0d && body[i + 1] !== 0x0a);
  const startLine = (end: number) => {
    while (offset < body.length && (body[offset] === 0x0a || body[offset] === 0x0d)) {
      if (isBreak(offset)) line++;
      offset++;
    }
    const start = line;
    for (; offset < end; offset++) if (isBreak(offset)) line++;
    return start;
  };
  // on_record reads the parser's live context (no per-record info snapshot: less garbage, less CPU).
  // Fed in slices, not as one 5 MiB chunk: the parse then yields to other requests between slices.
  const parser = Readable.from(slices(body, PARSE_SLICE_BYTES)).pipe(
    parse({
      // No legitimate row comes near this; a longer one is refused at once rather than parsed.
      max_record_size: MAX_RECORD_BYTES,
      relax_column_count: true,
      skip_empty_lines: true,
      record_delimiter: ['\r\n', '\n', '\r'],
      // The context carries `bytes` at runtime; the typings only describe the casting fields.
      on_record: ((record: string[], context: { bytes: number }) => ({
        record,
        at: startLine(context.bytes),
      })) as unknown as Options['on_record'],
    }),
  );
  let columns: (string | undefined)[] | undefined;
  let headerSeen = 0;
  const rows: CsvRow[] = [];
  try {
    for await (const { record, at } of parser as AsyncIterable<{ record: string[]; at: number }>) {
      if (record.every((cell) => cell.trim() === '')) continue;
      if (!columns) {
        headerSeen++;
        const names = record.map((cell) => COLUMN_FIELDS.get(normaliseHeader(cell)));
        const key = REQUIRED[kind][0];
        if (!names.includes(key)) {
          // The first row may be the instruction row; the header must come by the second.
          if (headerSeen === 1 && firstLine === 1) continue;
          throw fileError(`The users csv file must have a header row with the columns: ${missing(kind, names).join(', ')}.`);
        }
        const lacking = missing(kind, names);
        if (lacking.length > 0) throw fileError(`The users csv file is missing the columns: ${lacking.join(', ')}.`);
        const defined = names.filter(Boolean);
        if (new Set(defined).size !== defined.length) throw fileError('The users csv file has duplicate columns.');
        columns = names;
        continue;
      }
      if (rows.length >= MAX_ROWS) throw fileError(`The users csv file must not contain more than ${MAX_ROWS} rows.`);
      const fields: Record<string, string> = {};
      columns.forEach((field, index) => {
        if (field && record[index] !== undefined) fields[field] = record[index];
      });
      rows.push({ line: at, record: fields });
    }
  } catch (error) {
    parser.destroy();
    if (error instanceof CsvError) throw fileError(`The users csv file is not valid CSV: ${error.message}`);
    throw error;
  }
  if (!columns) throw fileError(`The users csv file must have a header row with the columns: ${REQUIRED[kind].map(columnOf).join(', ')}.`);
  if (rows.length === 0) throw fileError('The users csv file contains no data rows.');
  return rows;
}

/** Index of the first CR or LF (-1 if none), by native scans rather than a callback per byte. */
function firstBreak(body: Buffer): number {
  const lf = body.indexOf(0x0a);
  const cr = body.indexOf(0x0d);
  return lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
}

function* slices(body: Buffer, size: number) {
  for (let at = 0; at < body.length; at += size) yield body.subarray(at, at + size);
}

const columnOf = (field: string) => FIELD_COLUMNS[field] ?? field;
const missing = (kind: CsvKind, names: (string | undefined)[]) => REQUIRED[kind].filter((f) => !names.includes(f)).map(columnOf);
