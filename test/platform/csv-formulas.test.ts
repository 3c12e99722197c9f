// Formula injection in every CSV the service writes (docs/security.md, "Uploads, CSV and company
// data"): a cell such as `x;=cmd|' /C calc'!A0` used to be written as it was, and a spreadsheet in a
// locale that separates cells with `;` (or reading the file as tab-separated) split it and ran the
// second half as a formula. Each writer is read back the way such a reader splits it, on `,`, `;`
// and tab: no piece may start with = + - @ unless it is a plain number.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../../src/db/client.js';
import { csvText, neutraliseCell } from '../../src/platform/csv.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { as } from '../helpers/http.js';
import { buildRemittanceWorld, type RemittanceWorld } from '../helpers/remittances.js';

const HOSTILE = [`x;=cmd|' /C calc'!A0`, 'a\t+SUM(1)', 'b, -2+3', 'c;  @A1', 'd,=1'];

/** Pieces of every line split on `separator` (quotes ignored, as a reader in another locale does) that a spreadsheet runs. */
function formulas(csv: string, separator: string): string[] {
  return csv
    .split(/\r?\n/)
    .flatMap((line) => line.split(separator))
    .map((piece) => piece.replace(/^[\s"]+/, ''))
    .filter((piece) => /^[=+\-@]/.test(piece) && !/^-?\d+(\.\d+)?"?$/.test(piece));
}
const anyFormula = (csv: string) =>
  [',', ';', '\t'].flatMap((separator) => formulas(csv, separator).map((piece) => `${JSON.stringify(separator)}: ${piece}`));

describe('the one rule (platform/csv.ts)', () => {
  it.each([
    [`x;=cmd|' /C calc'!A0`, `x;'=cmd|' /C calc'!A0`],
    ['a\t+1', "a\t'+1"],
    ['b, -2', "b, '-2"],
    ['c;  @A1', "c;  '@A1"],
    ['  =1+1', "'  =1+1"],
    ['=1', "'=1"],
    ['Ada; Obi', 'Ada; Obi'],
    ['O=K', 'O=K'],
    ['1-2', '1-2'],
  ])('%j → %j', (input, output) => expect(neutraliseCell(input)).toBe(output));

  it('writes numbers as they are and every text cell neutralised', () => {
    const csv = csvText([[...HOSTILE, { number: '-5.00' }]]);
    expect(anyFormula(csv)).toEqual([]);
    expect(csv.trim().endsWith(',-5.00')).toBe(true);
  });

  it('is linear on long runs of separators and spaces', () => {
    const cell = `${';'.repeat(100_000)}${' '.repeat(100_000)}\t`.repeat(5);
    const started = process.hrtime.bigint();
    neutraliseCell(cell);
    expect(Number(process.hrtime.bigint() - started) / 1e9).toBeLessThan(2);
  });
});

describe('every CSV the service writes, through HTTP', () => {
  let ctx: TestContext;
  let world: RemittanceWorld;

  beforeAll(async () => {
    ctx = await createTestApp({ sandboxTransferDelaySeconds: 0 });
    world = await buildRemittanceWorld(ctx.app, ctx.db);
    // Text that reaches the schedules: employees' names (read when the file is made), the
    // employer's name and its IDs at each authority.
    for (const [index, user] of world.staff.slice(0, 4).entries()) {
      const res = await as(ctx.app, world.company).put(`/api/users/${user.id}`, {
        first_name: HOSTILE[index],
        last_name: HOSTILE[index + 1],
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    await ctx.db.execute(
      sql`UPDATE companies SET name = ${HOSTILE[0]}, tax_ids = ${JSON.stringify({ LA: HOSTILE[1], FC: HOSTILE[2] })}::jsonb,
          pencom_employer_code = ${HOSTILE[3]}, nhf_employer_number = ${HOSTILE[4]}, nsitf_number = ${HOSTILE[0]}, itf_number = ${HOSTILE[1]}
          WHERE id = ${world.company.id}`,
    );
  });
  afterAll(() => ctx?.close());

  it('remittance schedules and the annual return: no cell starts a formula however the line is split', async () => {
    const problems: string[] = [];
    for (const url of [
      '/api/remittances/paye.csv?month=2026-03&state=LA',
      '/api/remittances/paye.csv?month=2026-03&state=FC',
      '/api/remittances/pension.csv?month=2026-03&pfa_code=STANBICIBTC',
      '/api/remittances/pension.csv?month=2026-03&pfa_code=LEADWAY',
      '/api/remittances/nhf.csv?month=2026-03',
      '/api/remittances/nsitf.csv?month=2026-03',
      '/api/annual-returns/2026?state=LA&format=csv',
    ]) {
      const res = await as(ctx.app, world.company).get(url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      // The hostile text is there (neutralised), not dropped.
      expect(res.body, url).toContain('cmd|');
      for (const problem of anyFormula(res.body)) problems.push(`${url} ${problem}`);
    }
    expect(problems).toEqual([]);
  });

  it('the users CSV templates (U12, U13)', async () => {
    for (const url of ['/api/users/import-template', '/api/users/update-template']) {
      const res = await as(ctx.app, world.company).get(url);
      expect(res.statusCode).toBe(200);
      expect(anyFormula(res.body), url).toEqual([]);
    }
  });
});
