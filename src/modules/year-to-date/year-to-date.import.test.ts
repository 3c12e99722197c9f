// POST /api/year-to-date/import through HTTP (docs/payroll.md, "Opening year-to-date"): rows
// succeed or fail on their own, failures name the line and column, dry_run writes nothing, and
// whole-file problems refuse the file. A real database (PGlite, or PostgreSQL).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { multipart } from '../../../test/helpers/users.js';
import { queryRows } from '../../db/client.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const HEADER = 'email,year,gross_pay,taxable_pay,tax_withheld,employee_pension,nhf,nhis,months';

function upload(company: TestCompany, csv: string, query = '', fields: Record<string, string> = {}) {
  const { payload, headers } = multipart(fields, [{ field: 'year_to_date_csv', filename: 'ytd.csv', contentType: 'text/csv', data: csv }]);
  return as(ctx.app, company).post(`/api/year-to-date/import${query}`, payload, { headers });
}

const stored = (userIds: number[]) =>
  queryRows<{ user_id: number; year: number; gross_pay: string; tax_withheld: string; months: number }>(
    ctx.db,
    sql`SELECT user_id, year, gross_pay::text AS gross_pay, tax_withheld::text AS tax_withheld, months
        FROM user_opening_ytd WHERE user_id = ANY(${`{${userIds.join(',')}}`}::int[]) ORDER BY user_id, year`,
  );

describe('POST /api/year-to-date/import', () => {
  it('saves the valid rows and reports each invalid one with its line and column', async () => {
    const company = await createCompany(ctx.db);
    const other = await createCompany(ctx.db);
    const [u1, u2] = await createUsers(ctx.db, company.id, [{}, {}]);
    const [stranger] = await createUsers(ctx.db, other.id, [{}]);
    const csv = [
      HEADER,
      `${u1.email.toUpperCase()},2026,3000000,3000000,396120.00,216000,0,0,6`,
      `${u2.email},2026,-5,100,0,0,0,0,13`,
      `${stranger.email},2026,1,1,0,0,0,0,1`,
      `${u1.email},2025,100.5,100.5,0,0,0,0,1`,
      `${u1.email},2026,1,1,1,1,1,1,1`,
      `,1999,1,1,1,1,1,1,1`,
      '',
      `${u2.email},2026,10,10,1,0,0,0,2`,
    ].join('\r\n');
    const res = await upload(company, csv);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.status).toBe('partial');
    expect(body.summary).toBe('3 of 7 rows succeeded.');
    expect(body.successes).toEqual([
      { row: 2, user_id: u1.id, email: u1.email.toLowerCase(), year: 2026 },
      { row: 5, user_id: u1.id, email: u1.email.toLowerCase(), year: 2025 },
      { row: 9, user_id: u2.id, email: u2.email.toLowerCase(), year: 2026 },
    ]);
    expect(body.failures.map((f: { row: number; errors: object }) => [f.row, Object.keys(f.errors).sort()])).toEqual([
      [3, ['gross_pay', 'months']],
      [4, ['email']],
      [6, ['email']],
      [7, ['email', 'year']],
    ]);
    expect(body.failures[2].errors.email).toEqual(['The email appears more than once for the year 2026 in this file.']);
    expect(await stored([u1.id, u2.id, stranger.id])).toEqual([
      { user_id: u1.id, year: 2025, gross_pay: '100.50', tax_withheld: '0.00', months: 1 },
      { user_id: u1.id, year: 2026, gross_pay: '3000000.00', tax_withheld: '396120.00', months: 6 },
      { user_id: u2.id, year: 2026, gross_pay: '10.00', tax_withheld: '1.00', months: 2 },
    ]);
    // GET shows an imported opening.
    const shown = await as(ctx.app, company).get(`/api/users/${u1.id}/year-to-date/2026`);
    expect(shown.json().before_service).toMatchObject({ gross_pay: 3_000_000, tax_withheld: 396_120, months: 6 });
  });

  it('dry_run (query or form field) checks every row and writes nothing', async () => {
    const company = await createCompany(ctx.db);
    const [u] = await createUsers(ctx.db, company.id, [{}]);
    const csv = `${HEADER}\n${u.email},2026,1,1,0,0,0,0,1\n`;
    for (const [query, fields] of [
      ['?dry_run=true', {}],
      ['', { dry_run: 'true' }],
    ] as const) {
      const res = await upload(company, csv, query, fields);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: 'success', message: 'Dry run: every row is valid. Nothing was saved.' });
    }
    expect(await stored([u.id])).toEqual([]);
    const real = await upload(company, csv);
    expect(real.json().message).toBe('All opening figures were saved successfully.');
    expect(await stored([u.id])).toHaveLength(1);
  });

  it('refuses a file without the columns, with unknown columns, empty, or missing', async () => {
    const company = await createCompany(ctx.db);
    const cases: [string, string][] = [
      [
        'email,year,gross_pay\nx@y.z,2026,1',
        'The year to date csv file is missing the columns: taxable_pay, tax_withheld, employee_pension, nhf, nhis, months.',
      ],
      [`${HEADER},bonus\n`, 'The year to date csv file has unknown columns: bonus.'],
      [`${HEADER}\n`, 'The year to date csv file contains no data rows.'],
      ['', 'The year to date csv file is empty.'],
    ];
    for (const [csv, message] of cases) {
      const res = await upload(company, csv);
      expect([res.statusCode, res.json()]).toEqual([422, { errors: { year_to_date_csv: [message] } }]);
    }
    const form = multipart({ note: 'x' });
    const none = await as(ctx.app, company).post('/api/year-to-date/import', form.payload, { headers: form.headers });
    expect([none.statusCode, none.json()]).toEqual([422, { errors: { year_to_date_csv: ['The year to date csv field is required.'] } }]);
  });

  it('needs the scope users.update', async () => {
    const reader = await createCompany(ctx.db, { scopes: ['users.show'] });
    const writer = await createCompany(ctx.db, { scopes: ['users.update'] });
    const [u] = await createUsers(ctx.db, writer.id, [{}]);
    expect((await upload(reader, `${HEADER}\n${u.email},2026,1,1,0,0,0,0,1`)).statusCode).toBe(403);
    expect((await upload(writer, `${HEADER}\n${u.email},2026,1,1,0,0,0,0,1`)).statusCode).toBe(200);
  });
});
