// Console → Payroll reads its table's columns only (payroll-runs.list.repo.ts, `listedPage`): the
// four totals it shows as their stored text, no counts, no skipped list. The table it renders is
// the one the runs' API objects render, row for row, in every order and on every page, on both
// databases; a stored total beyond a double's precision is shown exactly (the API's number is the
// nearest double).
import { sql } from 'drizzle-orm';
import { expect, vi } from 'vitest';
import { createCompany } from '../../test/helpers/factories.js';
import { describe, test } from '../../test/helpers/fixtures.js';
import type { ListedRunRow, RunOrder } from '../modules/payroll-runs/index.js';
import type { RunView } from './payroll-runs.view.js';
import { type RunsSort, runRow, runsListBody } from './payroll-runs-list.view.js';
import { createRunRows } from './run-rows.service.js';

const TOTALS = [
  `{"employees": 3, "gross_pay": "100000.50", "tax_withheld": "-1234.50", "net_pay": "80000.25"}`,
  `{"employees": 12, "gross_pay": 2500000, "tax_withheld": 1234.5, "net_pay": 0.01}`,
  '{}',
  `{"employees": 1, "gross_pay": "9999999999999.99", "tax_withheld": "0.00", "net_pay": "0.10"}`,
  `{"employees": 2, "gross_pay": "4503599627370497.50", "tax_withheld": "1.00", "net_pay": "2.00"}`,
];
const HUGE = 4;

/** The table's row as the runs' API object gave it before (the totals its JSON numbers). */
const fromObject = (run: RunView): ListedRunRow => ({
  id: run.id,
  status: run.status as ListedRunRow['status'],
  kind: run.kind,
  reason: run.reason,
  pay_period_start: run.pay_period_start,
  pay_period_end: run.pay_period_end,
  created_at: run.created_at as string,
  employees: String(run.totals.employees),
  gross_pay: String(run.totals.gross_pay),
  tax_withheld: String(run.totals.tax_withheld),
  net_pay: String(run.totals.net_pay),
});

describe("the console's Payroll table", () => {
  test.beforeAll(async ({ ctx, company }) => {
    for (const [n, totals] of TOTALS.entries()) {
      const offCycle = n % 2 === 1;
      await ctx.db.execute(
        sql`INSERT INTO payroll_runs (id, company_id, status, source, kind, reason, pay_period_start, pay_period_end, totals, skipped, created_at)
            VALUES (${`RUN-LISTED-${n}`}, ${company.id}, ${['draft', 'approved', 'paid', 'cancelled', 'failed'][n]}, 'salaries',
              ${offCycle ? 'off_cycle' : 'regular'}, ${offCycle ? 'bonus' : null},
              make_date(2026, ${n === 3 ? 1 : n + 1}, 1), make_date(2026, ${n === 3 ? 1 : n + 1}, 28), ${totals}::jsonb,
              '[{"user_id": 1, "reason": "No salary"}]'::jsonb, '2026-01-02 03:04:05.123456+00'::timestamptz + ${n} * interval '1 day')`,
      );
    }
  });

  test('renders what the runs objects render, in every order and on every page', async ({ ctx, company }) => {
    const runs = ctx.app.services.payrollRuns.runs;
    for (const key of ['created', 'pay_period'] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        const order: RunOrder = { key, direction };
        const sort: RunsSort = { key, order: direction };
        for (const pageNo of [1, 2]) {
          const listed = await runs.listed(company.id, pageNo, 2, order);
          const objects = (await runs.list(company.id, { page: pageNo, per_page: 2 }, {}, order)).data;
          expect(listed.lastPage).toBe(objects.last_page);
          expect(listed.runs.map((run) => run.id)).toEqual((objects.data as RunView[]).map((run) => run.id));
          expect(listed.runs.length).toBeGreaterThan(0);
          const huge = listed.runs.findIndex((run) => run.id === `RUN-LISTED-${HUGE}`);
          const expected = (objects.data as RunView[]).map(fromObject);
          // The one total past a double's precision: the API's number is the nearest double, the table the exact text.
          if (huge >= 0) expected[huge].gross_pay = '4503599627370497.50';
          const list = { sort, pageNo, lastPage: listed.lastPage };
          expect(runsListBody(listed.runs.map(runRow), list).value).toBe(runsListBody(expected.map(runRow), list).value);
        }
      }
    }
  });

  test('keeps the rows it drew (run-rows.service.ts): the same table in every order and on every page, a changed run drawn again, none for another company', async ({
    ctx,
    company,
  }) => {
    const runs = ctx.app.services.payrollRuns.runs;
    const runRows = createRunRows(runs);
    const listed = vi.spyOn(runs, 'listed');
    const drawn = async (pageNo: number, order: RunOrder, companyId = company.id) => {
      const calls = listed.mock.calls.length;
      const { rows, lastPage } = await runRows(companyId, pageNo, 2, order);
      const expected = await runs.listed(companyId, pageNo, 2, order);
      expect(lastPage).toBe(expected.lastPage);
      expect(rows.map(String)).toEqual(expected.runs.map((run) => String(runRow(run))));
      return { rows: rows.map(String).join(''), read: listed.mock.calls.length - calls - 1 };
    };
    try {
      for (const key of ['created', 'pay_period'] as const) {
        for (const direction of ['asc', 'desc'] as const) {
          for (const pageNo of [1, 2, 3]) {
            await drawn(pageNo, { key, direction });
            expect((await drawn(pageNo, { key, direction })).read).toBe(0);
          }
        }
      }
      const newest: RunOrder = { key: 'created', direction: 'desc' };
      await ctx.db.execute(sql`UPDATE payroll_runs SET status = 'paid', updated_at = now() WHERE id = 'RUN-LISTED-4'`);
      const changed = await drawn(1, newest);
      expect(changed.read).toBe(1);
      expect(changed.rows).toMatch(/RUN-LISTED-4<.*?>Paid</);
      const other = await createCompany(ctx.db);
      expect((await drawn(1, newest, other.id)).rows).toBe('');
    } finally {
      listed.mockRestore();
    }
  });

  test('shows a stored total exactly, however large', async ({ ctx, company }) => {
    const { runs } = await ctx.app.services.payrollRuns.runs.listed(company.id, 1, 20, { key: 'created', direction: 'desc' });
    expect(runsListBody(runs.map(runRow), { sort: { key: 'created', order: 'desc' }, pageNo: 1, lastPage: 1 }).value).toContain(
      '₦4,503,599,627,370,497.50',
    );
  });
});
