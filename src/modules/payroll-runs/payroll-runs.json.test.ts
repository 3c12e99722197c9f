// The runs list's unfiltered page written as JSON text by the database (payroll-runs.json.repo.ts,
// `listText`) must be, byte for byte, what the route's serializer (fast-json-stringify, compiled
// from the route's own response schema) writes for the JS path's object (`list`): same keys, same
// order, same numbers. The fixture has every field kind: each status and kind, off-cycle reasons,
// a pay schedule, approvals by each channel, nulls, microsecond instants, skipped employees with
// reasons that need escaping, counts of every paystub status, totals stored as strings, as numbers
// and absent, negative true-ups and amounts across the number formats (from 1e13 and 1e15 the text
// comes from float8). Both writers run on both databases here, though only a PostgreSQL server
// uses the SQL one in production (payroll-runs.list.service.ts).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createStaff, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { routeSerializer, WEIRD } from '../../../test/helpers/json-text.js';
import { runsJsonRepo } from './payroll-runs.json.repo.js';
import type { RunListQuery } from './payroll-runs.list.service.js';
import { RunSchema, RunsPage } from './payroll-runs.schemas.js';

let ctx: TestContext;
let acme: TestCompany;

const serialize = routeSerializer({ PayrollRun: RunSchema }, RunsPage, '/api/payroll-runs');

const AMOUNTS = [
  '100000.50',
  '0.00',
  '0.01',
  '-1234.50',
  '9999999999999.99',
  '12345678901234.56',
  '1234567890123456.25',
  '4503599627370497.50',
];
const STATUSES = ['draft', 'approved', 'processing', 'paid', 'partially_paid', 'failed', 'cancelled'];
const PAYSTUB_STATUSES = ['unpaid', 'held', 'failed', 'processing', 'paid', 'cancelled'];
const RUNS = 9;

/** A run's stored totals: strings (as storedTotals writes them), numbers, or absent, by n. */
function totalsOf(n: number): string {
  if (n === RUNS - 1) return '{}';
  const fields = ['gross_pay', 'irregular_gross', 'tax_withheld', 'tax_true_up', 'employee_pension', 'employer_pension', 'nhf'];
  const money = fields.map((field, k) => {
    const amount = AMOUNTS[(n + k) % AMOUNTS.length];
    return `"${field}": ${n % 3 === 2 ? Number(amount) : `"${amount}"`}`;
  });
  return `{"employees": ${n * 7}, ${money.join(', ')}, "net_pay": "80000.25", "employer_cost": "0.10"}`;
}

beforeAll(async () => {
  ctx = await createTestApp();
  const { db } = ctx;
  acme = await createCompany(db);
  const people = await createStaff(db, acme.id, 3);
  const [schedule] = (
    await db.execute<{ id: number }>(
      sql`INSERT INTO pay_schedules (company_id, name, frequency, pay_day, first_period_start)
          VALUES (${acme.id}, 'Monthly', 'monthly', '25', '2026-01-01') RETURNING id`,
    )
  ).rows;
  for (let n = 0; n < RUNS; n++) {
    const id = `RUN-TEXT-${n}`;
    const offCycle = n % 4 === 1;
    const approved = n % 3 !== 0;
    const skipped = JSON.stringify(
      n % 2 === 0
        ? [
            { user_id: people[0].id, reason: WEIRD },
            { user_id: 7, reason: 'No salary' },
          ]
        : [],
    );
    await db.execute(
      sql`INSERT INTO payroll_runs (id, company_id, status, source, kind, reason, schedule_id, pay_period_start, pay_period_end, payment_date,
            created_by_email, created_by_user_id, approved_by_email, approved_by_user_id, approved_via, approved_at, paid_at, cancelled_at,
            totals, skipped, created_at, updated_at)
          VALUES (${id}, ${acme.id}, ${STATUSES[n % STATUSES.length]}, 'salaries', ${offCycle ? 'off_cycle' : 'regular'},
            ${offCycle ? ['bonus', 'correction', 'final_pay', 'other'][n % 4] : null}, ${n === 2 ? schedule.id : null},
            make_date(2026, ${n + 1}, 1), make_date(2026, ${n + 1}, 28), ${n % 5 === 4 ? null : sql`make_date(2026, ${n + 1}, 27)`},
            ${n === 3 ? WEIRD : `hr${n}@acme.test`}, ${n % 2 === 0 ? people[1].id : null},
            ${approved ? `boss${n}@acme.test` : null}, ${approved ? people[2].id : null},
            ${approved ? ['console', 'email_link', 'token'][(n % 4) % 3] : null},
            ${approved ? sql`'2026-03-04 05:06:07.891234+00'::timestamptz` : null}, ${n % 7 === 3 ? sql`'2026-03-05 00:00:00.5+00'::timestamptz` : null},
            ${n % 7 === 6 ? sql`now()` : null}, ${totalsOf(n)}::jsonb, ${skipped}::jsonb,
            '2026-01-02 03:04:05.123456+00'::timestamptz + ${n} * interval '1 day', '2026-11-22 10:15:00+00')`,
    );
    // Paystubs of every status on most runs: the counts come from the run's counter slots.
    if (n % 4 !== 3)
      await db.execute(
        sql`INSERT INTO paystubs (company_id, user_id, pay_period_start, pay_period_end, taxable_income, reimbursements, other_allowances,
              gross_pay, net_pay, tax_withheld, pension_contribution, nhf_contribution, nhis_contribution, other_deductions,
              employer_pension_contribution, nhis_employer_contribution, employer_cost, tax_regime, status, transaction_id, off_cycle)
            SELECT ${acme.id}, ${people[0].id}, make_date(2026, ${n + 1}, 1), make_date(2026, ${n + 1}, 28), 1000, 0, 0, 1000, 900,
              50, 30, 20, 0, 0, 40, 0, 1040, 'pita', s, ${id}, true
            FROM unnest(${`{${PAYSTUB_STATUSES.slice(0, 1 + (n % 6)).join(',')}}`}::text[]) AS s`,
      );
  }
});
afterAll(() => ctx.close());

const runs = () => ctx.app.services.payrollRuns.runs;

async function bothWriters(query: RunListQuery, rawQuery: Record<string, unknown>) {
  const object = await runs().list(acme.id, query, rawQuery);
  return { js: serialize(object), text: await runs().listText(acme.id, query, rawQuery), object };
}

describe('the runs list as JSON text written by the database', () => {
  it("is what the route's serializer writes for the JS path, on every page and past the end", async () => {
    let pages = 0;
    for (let page = 1; page <= 5; page++) {
      const { js, text, object } = await bothWriters({ page, per_page: 2 }, { per_page: '2', page: String(page) });
      expect(JSON.stringify(JSON.parse(text))).toBe(JSON.stringify(JSON.parse(js)));
      expect(text).toBe(js);
      if (object.data.data.length > 0) pages++;
    }
    expect(pages).toBe(5);
    const past = await bothWriters({ page: 9, per_page: 2 }, { page: '9', per_page: '2' });
    expect(past.text).toBe(past.js);
    expect(JSON.parse(past.text).data.total).toBe(RUNS);
  });

  it('covers what it claims: every status, kind and channel, skipped, counts and every number form', async () => {
    const { text } = await bothWriters({ per_page: 50 }, { per_page: '50' });
    const listed = JSON.parse(text).data.data as Record<string, unknown>[];
    expect(new Set(listed.map((run) => run.status))).toEqual(new Set(STATUSES));
    expect(new Set(listed.map((run) => run.approved_via))).toEqual(new Set([null, 'console', 'email_link', 'token']));
    expect(listed.some((run) => run.schedule_id !== null) && listed.some((run) => run.reason !== null)).toBe(true);
    expect(listed.some((run) => (run.skipped as unknown[]).length === 2)).toBe(true);
    const counts = listed.map((run) => run.counts as Record<string, number>);
    expect(counts.some((c) => PAYSTUB_STATUSES.every((status) => c[status] === 1))).toBe(true);
    for (const number of [
      '1234567890123456.2',
      '12345678901234.56',
      '-1234.5',
      '"gross_pay":0,',
      '4503599627370498',
      '"employer_cost":0.1',
    ]) {
      expect(text).toContain(number);
    }
  });

  it("keeps each run's text by its row's version: a page read again reads no text, a changed run or count is read anew", async () => {
    const texts = vi.spyOn(runsJsonRepo, 'texts');
    const query = { per_page: 4 };
    const raw = { per_page: '4' };
    const same = async () => {
      const { js, text } = await bothWriters(query, raw);
      expect(text).toBe(js);
      return text;
    };
    try {
      const first = await same();
      texts.mockClear();
      expect(await same()).toBe(first);
      expect(texts).not.toHaveBeenCalled();
      // A count moves (a paystub paid) without the run's row: the page says so, from kept texts.
      const [listed] = JSON.parse(first).data.data as { id: string; counts: Record<string, number> }[];
      await ctx.db.execute(
        sql`UPDATE paystubs SET status = 'cancelled' WHERE id = (SELECT min(id) FROM paystubs WHERE transaction_id = ${listed.id} AND status <> 'cancelled')`,
      );
      const recounted = await same();
      expect(texts).not.toHaveBeenCalled();
      const [after] = JSON.parse(recounted).data.data as { counts: Record<string, number> }[];
      expect(after.counts.cancelled).toBe(listed.counts.cancelled + 1);
      // The run's row changes: its text is written again, and kept again.
      await ctx.db.execute(sql`UPDATE payroll_runs SET updated_at = '2030-01-02T03:04:05.678901Z' WHERE id = ${listed.id}`);
      expect(JSON.parse(await same()).data.data[0].updated_at).toBe('2030-01-02T03:04:05.678000Z');
      expect(texts).toHaveBeenCalledTimes(1);
      await same();
      expect(texts).toHaveBeenCalledTimes(1);
    } finally {
      texts.mockRestore();
    }
  });

  it('an empty company: an empty page with total 0', async () => {
    const empty = await createCompany(ctx.db);
    const object = await runs().list(empty.id, { per_page: 20 }, {});
    const text = await runs().listText(empty.id, { per_page: 20 }, {});
    expect(text).toBe(serialize(object));
    expect(JSON.parse(text).data.total).toBe(0);
  });

  it('GET /api/payroll-runs answers that document, as text on a PostgreSQL server and serialized on PGlite, and filtered pages as before', async () => {
    for (const url of [
      '/api/payroll-runs?per_page=3&page=2',
      '/api/payroll-runs',
      '/api/payroll-runs?status=paid',
      '/api/payroll-runs?kind=off_cycle',
    ]) {
      const response = await as(ctx.app, acme).get(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      const params = new URL(url, 'http://x').searchParams;
      const rawQuery = Object.fromEntries(params);
      const query: RunListQuery = {
        status: params.get('status') ?? undefined,
        kind: params.get('kind') ?? undefined,
        page: params.has('page') ? Number(params.get('page')) : undefined,
        per_page: params.has('per_page') ? Number(params.get('per_page')) : undefined,
      };
      expect(response.body).toBe(serialize(await runs().list(acme.id, query, rawQuery)));
    }
  });
});
