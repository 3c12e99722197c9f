// GET /api/remittances and its downloads over a real run paid through the sandbox: every schedule's
// totals against the paystubs to the kobo, the missing list, CSV and XLSX parsed back (header block,
// sums, formula injection neutralised), the NSITF base setting and the 4xx answers.
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { as } from '../../../test/helpers/http.js';
import { buildRemittanceWorld, EVIL_NAME, type RemittanceWorld, VOLUNTARY_PENSION } from '../../../test/helpers/remittances.js';
import { queryRows, sql } from '../../db/client.js';

/** Unfiled and past its due date (docs/compliance.md, "Filings and deadlines"): every 2026-03 schedule once April is over. */
const OVERDUE = { status: 'overdue', days_late: expect.any(Number), filing: null };
/** Nothing to remit and no filing: no status. */
const NOTHING_OWED = { status: null, days_late: 0, filing: null };
let ctx: TestContext;
let world: RemittanceWorld;
const get = (url: string) => as(ctx.app, world.company).get(url);

/** Sums of the company's March paystubs (paid run, paid paystubs) grouped by `key`, in kobo. */
async function paystubSums(key: string) {
  const rows = await queryRows<Record<string, string>>(
    ctx.db,
    sql.raw(`SELECT ${key} AS key, count(*)::text AS n, sum(tax_withheld * 100)::bigint::text AS tax, sum(pension_contribution * 100)::bigint::text AS ee,
        sum(employer_pension_contribution * 100)::bigint::text AS er, sum(nhf_contribution * 100)::bigint::text AS nhf, sum(gross_pay * 100)::bigint::text AS gross,
        sum((basic_pay + housing_pay + transport_pay) * 100)::bigint::text AS bht,
        COALESCE(sum((SELECT sum(employee_contribution + employer_contribution) FROM custom_contribution_records cr
          WHERE cr.contribution_id = paystubs.id AND cr.name = '${VOLUNTARY_PENSION}') * 100), 0)::bigint::text AS vol
      FROM paystubs WHERE transaction_id = '${world.marchRun}' AND status = 'paid' GROUP BY ${key} ORDER BY 1`),
  );
  return new Map(rows.map((row) => [row.key, row]));
}
const naira = (kobo: string | bigint) => Number(BigInt(kobo)) / 100;
/** The PFA of a paystub the pension schedule files (it has an RSA PIN), else null (docs/compliance.md). */
const FILED_PFA = 'CASE WHEN rsa_pin IS NOT NULL THEN pfa_code END';
/** 'filed' for a paystub the NHF schedule files (an NHF number), else 'missing'. */
const NHF_FILED = "CASE WHEN nhf_number IS NOT NULL THEN 'filed' ELSE 'missing' END";
const toKobo = (amount: number) => BigInt(Math.round(amount * 100));

beforeAll(async () => {
  ctx = await createTestApp({ sandboxTransferDelaySeconds: 0 });
  world = await buildRemittanceWorld(ctx.app, ctx.db);
});
afterAll(() => ctx?.close());

describe('GET /api/remittances', () => {
  it("answers the month's schedules, each equal to the sum of its paystubs", async () => {
    const res = await get('/api/remittances?month=2026-03');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Remittances retrieved successfully');
    expect(body.month).toBe('2026-03');
    const byState = await paystubSums('state_of_residence');
    expect(body.schedules.paye).toEqual([
      {
        state: 'FC',
        authority: 'FCT Internal Revenue Service',
        employer_tax_id: 'FCT-77',
        employees: 2,
        amount: naira(byState.get('FC')!.tax),
        due_date: '2026-04-10',
        ...OVERDUE,
      },
      {
        state: 'KN',
        authority: 'Kano State Internal Revenue Service',
        employer_tax_id: null,
        employees: 1,
        amount: naira(byState.get('KN')!.tax),
        due_date: '2026-04-10',
        ...OVERDUE,
      },
      {
        state: 'LA',
        authority: 'Lagos State Internal Revenue Service',
        employer_tax_id: 'LIRS-55501',
        employees: 3,
        amount: naira(byState.get('LA')!.tax),
        due_date: '2026-04-10',
        ...OVERDUE,
      },
    ]);
    const byPfa = await paystubSums(FILED_PFA);
    expect(body.schedules.pension).toEqual(
      ['LEADWAY', 'STANBICIBTC'].map((code) => {
        const row = byPfa.get(code)!;
        return {
          pfa_code: code,
          pfa_name: code === 'LEADWAY' ? 'Leadway PFA Limited' : 'Stanbic IBTC Pension Managers Limited',
          employees: Number(row.n),
          employee_amount: naira(row.ee),
          employer_amount: naira(row.er),
          voluntary_amount: naira(row.vol),
          total: naira(BigInt(row.ee) + BigInt(row.er) + BigInt(row.vol)),
          // Paid Friday 27 March 2026: Good Friday and Easter Monday do not count.
          due_date: '2026-04-09',
          ...OVERDUE,
        };
      }),
    );
    const [all] = (await paystubSums('company_id')).values();
    // NHF files only paystubs with an NHF number; the evil-named employee has none (in `missing`).
    const nhf = await paystubSums(NHF_FILED);
    expect(body.schedules.nhf).toEqual({
      employees: 6,
      amount: naira(nhf.get('filed')!.nhf),
      missing_amount: naira(nhf.get('missing')!.nhf),
      due_date: '2026-04-27',
      ...OVERDUE,
    });
    expect(BigInt(nhf.get('missing')!.nhf)).toBeGreaterThan(0n);
    // Each schedule's filed total beside what it leaves out; together they are the month's whole.
    const pensionOf = (row: Record<string, string>) => BigInt(row.ee) + BigInt(row.er) + BigInt(row.vol);
    const unfiled = byPfa.get(null as never)!;
    expect(body.schedules.totals).toEqual({
      paye: {
        amount: naira(BigInt(all.tax) - BigInt(byState.get(null as never)!.tax)),
        missing_amount: naira(byState.get(null as never)!.tax),
      },
      pension: { amount: naira(pensionOf(all) - pensionOf(unfiled)), missing_amount: naira(pensionOf(unfiled)) },
      nhf: { amount: naira(nhf.get('filed')!.nhf), missing_amount: naira(nhf.get('missing')!.nhf) },
    });
    expect(pensionOf(unfiled)).toBeGreaterThan(0n);
    expect(body.schedules.nsitf).toEqual({
      base: 'gross',
      amount: naira((BigInt(all.gross) + 50n) / 100n),
      due_date: '2026-04-16',
      ...OVERDUE,
    });
    // Totals over every schedule to the kobo: PAYE + the one without a state = all tax withheld.
    const paye = body.schedules.paye.reduce((sum: bigint, entry: { amount: number }) => sum + toKobo(entry.amount), 0n);
    expect(paye + BigInt(byState.get(null as never)?.tax ?? 0)).toBe(BigInt(all.tax));
  });

  it('lists what stops each schedule from being filed', async () => {
    const { missing } = (await get('/api/remittances?month=2026-03')).json();
    const [, , evil, , dayo, efe, funke] = world.staff;
    // Each with what the schedules leave out for them: the sums of their own paystubs.
    const own = async (userId: number) => {
      const [row] = await queryRows<{ tax: string; pension: string; nhf: string }>(
        ctx.db,
        sql`SELECT sum(tax_withheld)::text AS tax, sum(pension_contribution + employer_pension_contribution
                   + COALESCE((SELECT sum(employee_contribution + employer_contribution) FROM custom_contribution_records cr
                               WHERE cr.contribution_id = paystubs.id AND cr.tax_deductible), 0))::text AS pension,
                   sum(nhf_contribution)::text AS nhf
            FROM paystubs WHERE transaction_id = ${world.marchRun} AND status = 'paid' AND user_id = ${userId}`,
      );
      return { tax: Number(row.tax), pension: Number(row.pension), nhf: Number(row.nhf) };
    };
    const [e, d, f, k] = [await own(evil.id), await own(dayo.id), await own(efe.id), await own(funke.id)];
    expect(missing.map((entry: { amounts: unknown }) => entry.amounts)).toEqual([
      { paye: 0, pension: 0, nhf: e.nhf },
      { paye: 0, pension: d.pension, nhf: 0 },
      { paye: 0, pension: f.pension, nhf: 0 },
      { paye: k.tax, pension: 0, nhf: 0 },
    ]);
    expect([e.nhf, d.pension, f.pension, k.tax].every((value) => value > 0)).toBe(true);
    expect(missing.map(({ amounts: _, ...entry }: { amounts: unknown }) => entry)).toEqual([
      { user_id: evil.id, employee_id: evil.employeeId, name: `${EVIL_NAME} @Sum`, fields: ['nhf_number'], schedules: ['nhf'] },
      { user_id: dayo.id, employee_id: dayo.employeeId, name: 'Dayo Bello', fields: ['rsa_pin'], schedules: ['pension'] },
      { user_id: efe.id, employee_id: efe.employeeId, name: 'Efe Okon', fields: ['pfa_code', 'rsa_pin'], schedules: ['pension'] },
      { user_id: funke.id, employee_id: funke.employeeId, name: 'Funke Ola', fields: ['state_of_residence'], schedules: ['paye'] },
    ]);
  });

  it('another month holds only its own runs; an empty month answers empty schedules', async () => {
    const april = (await get('/api/remittances?month=2026-04')).json();
    expect(april.schedules.paye.map((entry: { state: string }) => entry.state)).toEqual(['FC', 'KN', 'LA']);
    const empty = (await get('/api/remittances?month=2026-02')).json();
    expect(empty.schedules).toEqual({
      paye: [],
      pension: [],
      nhf: { employees: 0, amount: 0, missing_amount: 0, due_date: null, ...NOTHING_OWED },
      nsitf: { base: 'gross', amount: 0, due_date: '2026-03-16', ...NOTHING_OWED },
      totals: {
        paye: { amount: 0, missing_amount: 0 },
        pension: { amount: 0, missing_amount: 0 },
        nhf: { amount: 0, missing_amount: 0 },
      },
    });
    expect(empty.missing).toEqual([]);
  });

  it.each(['', '?month=2026-13', '?month=march', '?month=2026-03-01', '?month=1999-12'])('%s → 422', async (query) => {
    const res = await get(`/api/remittances${query}`);
    expect([res.statusCode, Object.keys(res.json().error)]).toEqual([422, ['month']]);
  });

  it('nsitf_base basic_housing_transport takes 1% of basic + housing + transport', async () => {
    const url = `/api/contribution-settings/${world.company.id}`;
    expect((await as(ctx.app, world.company).get(url)).json().data.nsitf_base).toBe('gross');
    const bad = await as(ctx.app, world.company).patch(url, { nsitf_base: 'net' });
    expect([bad.statusCode, bad.json()]).toEqual([422, { error: 'The nsitf_base must be one of: gross, basic_housing_transport.' }]);
    expect((await as(ctx.app, world.company).patch(url, { nsitf_base: 'basic_housing_transport' })).statusCode).toBe(200);
    const [all] = (await paystubSums('company_id')).values();
    const { nsitf } = (await get('/api/remittances?month=2026-03')).json().schedules;
    expect(nsitf).toEqual({
      base: 'basic_housing_transport',
      amount: naira((BigInt(all.bht) + 50n) / 100n),
      due_date: '2026-04-16',
      ...OVERDUE,
    });
    const csv = parse((await get('/api/remittances/nsitf.csv?month=2026-03')).body, { relax_column_count: true }) as string[][];
    expect(csv).toContainEqual(['Contribution (1% of the total base)', (Number((BigInt(all.bht) + 50n) / 100n) / 100).toFixed(2)]);
    expect((await as(ctx.app, world.company).patch(url, { nsitf_base: 'gross' })).statusCode).toBe(200);
  });
});

/** A CSV download as rows: the header block, then the column titles, the employees, the totals. */
async function csvOf(url: string) {
  const res = await get(url);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  const rows = parse(res.body, { relax_column_count: true, skip_empty_lines: false }) as string[][];
  const titles = rows.findIndex((row) => row[0] === 'S/N');
  return { res, head: rows.slice(1, titles), titles: rows[titles], lines: rows.slice(titles + 1, -1), total: rows.at(-1) as string[] };
}

async function xlsxOf(url: string) {
  const res = await get(url);
  expect(res.statusCode, res.body).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(res.rawPayload as never);
  const values: unknown[][] = [];
  workbook.worksheets[0].eachRow({ includeEmpty: true }, (row) => values.push((row.values as unknown[]).slice(1)));
  return { res, sheet: workbook.worksheets[0], values };
}

describe('schedule downloads', () => {
  it('paye.csv: header block, LIRS columns, sums to the kobo, formula cells neutralised', async () => {
    const { res, head, titles, lines, total } = await csvOf('/api/remittances/paye.csv?month=2026-03&state=la');
    expect(res.headers['content-disposition']).toBe('attachment; filename="paye-LA-2026-03.csv"');
    expect(head).toEqual([
      ['Employer', 'Remit & Co'],
      ['Employer tax ID (Lagos State Internal Revenue Service)', 'LIRS-55501'],
      ['Month', '2026-03'],
      ['Due date', '2026-04-10'],
      [''],
    ]);
    expect(titles).toEqual([
      'S/N',
      'Staff ID',
      'Surname',
      'Other names',
      'Payer ID / Tax ID',
      'NIN',
      'Gross monthly pay',
      'Taxable pay',
      'Tax deducted',
      'Tax remitted',
      'Period',
      'Payment date',
    ]);
    expect(lines.map((line) => line[2])).toEqual(["'@Sum", 'Ade', 'Obi']);
    expect(lines[0][3]).toBe(`'${EVIL_NAME}`);
    const la = (await paystubSums('state_of_residence')).get('LA')!;
    const tax = lines.reduce((sum, line) => sum + BigInt(line[8].replace('.', '')), 0n);
    expect(tax).toBe(BigInt(la.tax));
    expect(total[8]).toBe((Number(la.tax) / 100).toFixed(2));
    expect(lines[0].slice(10)).toEqual(['2026-03', '2026-03-27']);
  });

  it('paye.xlsx: numbers with a number format, the same sums, text neutralised', async () => {
    const { res, sheet, values } = await xlsxOf('/api/remittances/paye.xlsx?month=2026-03&state=FC');
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(values[1]).toEqual(['Employer', 'Remit & Co']);
    const titles = values.findIndex((row) => row[0] === 'S/N');
    const lines = values.slice(titles + 1, -1);
    expect(lines).toHaveLength(2);
    const fc = (await paystubSums('state_of_residence')).get('FC')!;
    expect(lines.reduce((sum, line) => sum + toKobo(line[8] as number), 0n)).toBe(BigInt(fc.tax));
    expect(typeof lines[0][6]).toBe('number');
    expect(sheet.getRow(titles + 2).getCell(7).numFmt).toBe('#,##0.00');
  });

  it('pension.csv and .xlsx per PFA: RSA PIN, base and contributions summing to the PFA entry', async () => {
    const byPfa = await paystubSums(FILED_PFA);
    const { head, titles, lines, total } = await csvOf('/api/remittances/pension.csv?month=2026-03&pfa_code=STANBICIBTC');
    expect(head).toContainEqual(['PenCom employer code', 'PR0000123456']);
    expect(titles).toEqual([
      'S/N',
      'RSA PIN',
      'Surname',
      'First name',
      'Middle name',
      'Staff ID',
      'Pension base',
      'Employee contribution',
      'Employer contribution',
      'Voluntary contribution',
      'Total',
      'Exit date',
    ]);
    const row = byPfa.get('STANBICIBTC')!;
    expect(lines).toHaveLength(Number(row.n));
    expect(BigInt(row.vol)).toBeGreaterThan(0n);
    expect(total[9]).toBe((Number(row.vol) / 100).toFixed(2));
    expect(total[10]).toBe((Number(BigInt(row.ee) + BigInt(row.er) + BigInt(row.vol)) / 100).toFixed(2));
    // Ada's line: her voluntary pension (5 % + 2 % of gross), not her union dues.
    const ada = lines.find((line) => line[3] === 'Ada')!;
    // (and no exit date: she has not left)
    expect(ada.slice(9)).toEqual(['31500.00', (31_500 + Number(ada[7]) + Number(ada[8])).toFixed(2), '']); // 7 % of ₦450,000
    // Dayo Bello has no RSA PIN: left out of the file (he is in `missing` with his amount).
    expect(lines.find((line) => line[2] === 'Bello')).toBeUndefined();
    expect(lines.every((line) => line[1] !== '')).toBe(true);
    const { values } = await xlsxOf('/api/remittances/pension.xlsx?month=2026-03&pfa_code=leadway');
    const last = values.at(-1) as number[];
    const leadway = byPfa.get('LEADWAY')!;
    expect([toKobo(last[7]), toKobo(last[8]), toKobo(last[9])]).toEqual([BigInt(leadway.ee), BigInt(leadway.er), BigInt(leadway.vol)]);
    expect(BigInt(leadway.vol)).toBeGreaterThan(0n);
  });

  it('nhf.csv, nhf.xlsx and nsitf.csv', async () => {
    const [all] = (await paystubSums('company_id')).values();
    const filed = (await paystubSums(NHF_FILED)).get('filed')!;
    const nhf = await csvOf('/api/remittances/nhf.csv?month=2026-03');
    expect(nhf.titles).toEqual(['S/N', 'NHF number', 'Surname', 'Other names', 'Staff ID', 'Basic pay', 'Contribution']);
    expect(nhf.head).toContainEqual(['NHF employer number', 'NHF-EMP-9']);
    // Six: the evil-named employee has no NHF number (in `missing` with the amount instead).
    expect(nhf.lines).toHaveLength(6);
    expect(nhf.lines.every((line) => line[1] !== '' && line[2] !== "'@Sum")).toBe(true);
    expect(nhf.total[6]).toBe((Number(filed.nhf) / 100).toFixed(2));
    const { values } = await xlsxOf('/api/remittances/nhf.xlsx?month=2026-03');
    expect(toKobo((values.at(-1) as number[])[6])).toBe(BigInt(filed.nhf));
    const nsitf = await csvOf('/api/remittances/nsitf.csv?month=2026-03');
    expect(nsitf.lines).toHaveLength(7);
    expect(nsitf.total[4]).toBe((Number(all.gross) / 100).toFixed(2));
    expect(nsitf.head).toContainEqual(['NSITF employer number', 'NSITF-42']);
  });

  it.each([
    ['/api/remittances/paye.pdf?month=2026-03', 404, 'Remittance schedule not found.'],
    ['/api/remittances/nsitf.csv', 422, 'month'],
    ['/api/remittances/paye.csv?month=2026-03', 422, 'state'],
    ['/api/remittances/paye.csv?month=2026-03&state=XX', 422, 'state'],
    ['/api/remittances/pension.xlsx?month=2026-03', 422, 'pfa_code'],
    ['/api/remittances/pension.csv?month=2026-03&pfa_code=NOPE', 422, 'pfa_code'],
  ])('%s → %i', async (url, status, error) => {
    const res = await get(url);
    expect(res.statusCode).toBe(status);
    const body = res.json().error;
    expect(typeof body === 'string' ? body : Object.keys(body)[0]).toBe(error);
  });

  it("keeps a past month's voluntary column when the rule stops being tax-deductible (the record's snapshot)", async () => {
    const before = (await get('/api/remittances?month=2026-03')).json().schedules.pension;
    const list = (await get(`/api/custom-contributions/${world.company.id}`)).json().data as { id: number; name: string }[];
    const rule = list.find((c) => c.name === VOLUNTARY_PENSION)!;
    const off = await as(ctx.app, world.company).patch(`/api/custom-contributions/${world.company.id}/${rule.id}`, {
      tax_deductible: false,
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await get('/api/remittances?month=2026-03')).json().schedules.pension).toEqual(before);
    expect(before.some((entry: { voluntary_amount: number }) => entry.voluntary_amount > 0)).toBe(true);
  });
});

describe('leavers in the pension schedule (docs/compliance.md, "Leavers in schedules")', () => {
  it("shows a leaver's exit date from the month of the exit on, blank in the months before", async () => {
    const ada = world.staff[0];
    const res = await as(ctx.app, world.company).post(`/api/users/${ada.id}/terminate`, { exit_date: '2026-04-15', reason: 'resignation' });
    expect(res.statusCode, res.body).toBe(200);
    const march = await csvOf('/api/remittances/pension.csv?month=2026-03&pfa_code=STANBICIBTC');
    const column = march.titles.indexOf('Exit date');
    expect(march.lines.map((line) => line[column])).toEqual(march.lines.map(() => ''));
    const april = await csvOf('/api/remittances/pension.csv?month=2026-04&pfa_code=STANBICIBTC');
    expect(april.lines.map((line) => [line[3], line[column]])).toContainEqual(['Ada', '2026-04-15']);
    expect(april.lines.filter((line) => line[3] !== 'Ada').every((line) => line[column] === '')).toBe(true);
    const { values } = await xlsxOf('/api/remittances/pension.xlsx?month=2026-04&pfa_code=STANBICIBTC');
    expect(values.some((row) => Array.isArray(row) && row.includes('2026-04-15'))).toBe(true);
  });
});
