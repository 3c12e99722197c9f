// The one formula-injection rule of both formats, and a CSV and an XLSX of the same sheet read back.
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { neutralise, type Sheet, toCsv, toXlsx } from './sheets.view.js';

describe('neutralise', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+2348012345678', "'+2348012345678"],
    ['-5', "'-5"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\rx', "'\rx"],
    ['Ada', 'Ada'],
    ['O=K', 'O=K'],
    ['', ''],
  ])('%j → %j', (input, output) => expect(neutralise(input)).toBe(output));
});

const sheet: Sheet = {
  name: 'test',
  title: '=Title',
  header: [['Employer', '-Acme']],
  columns: [
    { title: 'S/N', kind: 'int' },
    { title: 'Name', kind: 'text' },
    { title: 'Amount', kind: 'money' },
  ],
  rows: [
    [{ int: 1 }, '@evil', { kobo: 10n }],
    [{ int: 2 }, null, { kobo: 123456789n }],
  ],
};

describe('toCsv and toXlsx', () => {
  it('write every text cell neutralised, money exact, and a totals line', async () => {
    expect(parse(toCsv(sheet), { relax_column_count: true })).toEqual([
      ["'=Title"],
      ['Employer', "'-Acme"],
      [''],
      ['S/N', 'Name', 'Amount'],
      ['1', "'@evil", '0.10'],
      ['2', '', '1234567.89'],
      ['Total', '', '1234567.99'],
    ]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await toXlsx(sheet)) as never);
    const rows: unknown[][] = [];
    workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows.at(-1)).toEqual(['Total', undefined, 1234567.99]);
    expect(rows[3]).toEqual([1, "'@evil", 0.1]);
    expect(rows[0]).toEqual(["'=Title"]);
  });
});
