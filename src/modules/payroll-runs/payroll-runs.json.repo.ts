// The runs list's unfiltered page (GET /api/payroll-runs with no filter, newest first) with each run
// as the JSON text the API sends, written by PostgreSQL (docs/decisions.md, "Answers written as
// JSON text"), for a PostgreSQL server (payroll-runs.list.service.ts says when).
//
// The JS path (payroll-runs.list.repo.ts, then serializeRun and the route's fast-json-stringify)
// has node-postgres parse each run's two jsonb documents, turns fourteen decimal strings a run into
// kobo and back into numbers, and serializes the page: on a page of 20 runs, the list cost about
// 1.4 ms of the server's single thread a request against 0.6 for the loans list (docs/benchmarks.md,
// "Every list against the ceiling"). Here one prepared statement writes, on the database's core,
// the part of each run's text that the run's row decides (up to totals, and skipped); the server
// adds the counts, keeps the parts by the row's version and joins the texts into the paginator's
// envelope (payroll-runs.list-text.service.ts).
//
// The text is byte for byte what the route's serializer writes for serializeRun (PayrollRun's key
// order; payroll-runs.json.test.ts holds the two equal). Value formats: db/json-text.ts. A total is
// the stored decimal string as a JSON number (serializeRun: koboTextToNumber, the same number as
// parseKobo then koboToNumber; an absent total is 0), regular_gross is gross_pay - irregular_gross
// (exact), counts are the run's counter slots as listRepo sums them, and skipped keeps its stored
// order.
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, hotReads } from '../../db/client.js';
import { aliasJson, jsonObject, jsonObjectOpen, jsonValueOf } from '../../db/json-text.js';
import { namedStatement } from '../../db/prepared.js';
import { rowVersion } from '../../db/row-version.js';

// Columns of the statement's aliases: r the run, t its stored totals, k its counts, s a skipped employee.
const { int, str, at, day, num } = aliasJson;

// The stored totals (storedTotals: decimal strings and a count), each read once per run: LATERAL t,
// kept a subquery by OFFSET 0 (pulled up, each total's jsonb read and numeric parse were written into
// every place the number's text reads it, and ran twice a number).
const MONEY = [
  'gross_pay',
  'irregular_gross',
  'tax_withheld',
  'tax_true_up',
  'employee_pension',
  'employer_pension',
  'nhf',
  'nhis_employee',
  'nhis_employer',
  'other_deductions',
  'reimbursements',
  'net_pay',
  'employer_cost',
] as const;
const storedTotals = sql.raw(
  [
    `coalesce(r.totals->>'employees', '0')::numeric AS employees`,
    ...MONEY.map((field) => `coalesce(r.totals->>'${field}', '0')::numeric AS ${field}`),
  ].join(', '),
);

// PayrollRun's totals, in the schema's order (regular_gross third).
const totals = jsonObject([
  ['employees', num('t.employees')],
  ['gross_pay', num('t.gross_pay')],
  ['regular_gross', jsonValueOf(sql`(t.gross_pay - t.irregular_gross)`, 'number')],
  ...MONEY.slice(1).map((field): [string, SQL] => [field, num(`t.${field}`)]),
]);

/** PayrollRun's counts, in the schema's order. */
export const RUN_COUNT_STATUSES = ['unpaid', 'held', 'processing', 'paid', 'failed', 'cancelled'] as const;
const countSums = sql.raw(RUN_COUNT_STATUSES.map((status) => `coalesce(sum(rc.${status}), 0)::int AS ${status}`).join(', '));
const countColumns = sql.raw(RUN_COUNT_STATUSES.map((status) => `k.${status}`).join(', '));

const skipped = sql`coalesce((SELECT '[' || string_agg(${jsonObject([
  ['user_id', jsonValueOf(sql`(s.e->>'user_id')::numeric`, 'number')],
  ['reason', jsonValueOf(sql`s.e->>'reason'`, 'string')],
])}, ',' ORDER BY s.n) || ']' FROM jsonb_array_elements(r.skipped) WITH ORDINALITY AS s(e, n)), '[]')`;

/**
 * PayrollRun (payroll-runs.schemas.ts) in its key order up to its totals, open (no closing brace), for
 * a run `r` with its totals `t`: what the run's row alone decides. Its counts and skipped follow
 * (runText, payroll-runs.list.service.ts).
 */
const runHead = jsonObjectOpen([
  ['id', str('r.id')],
  ['company_id', int('r.company_id')],
  ['status', str('r.status')],
  ['kind', str('r.kind')],
  ['reason', str('r.reason')],
  ['schedule_id', int('r.schedule_id')],
  ['pay_period_start', day('r.pay_period_start')],
  ['pay_period_end', day('r.pay_period_end')],
  ['payment_date', day('r.payment_date')],
  ['created_by_email', str('r.created_by_email')],
  ['created_by_user_id', int('r.created_by_user_id')],
  ['approved_by_email', str('r.approved_by_email')],
  ['approved_by_user_id', int('r.approved_by_user_id')],
  ['approved_via', str('r.approved_via')],
  ['approved_at', at('r.approved_at')],
  ['paid_at', at('r.paid_at')],
  ['cancelled_at', at('r.cancelled_at')],
  ['created_at', at('r.created_at')],
  ['updated_at', at('r.updated_at')],
  ['totals', totals],
]);

/** A listed run's counts by paystub status, and the company's total of runs. */
export type RunCounts = Record<(typeof RUN_COUNT_STATUSES)[number], number>;
/** A run's place on the page: its row's version (db/row-version.ts) and counts. */
export type RunPlace = RunCounts & { id: string; version: string; total: number };
/** A run's place with the text its row decides: the head (up to totals, open) and skipped (a JSON array). */
export type RunTextParts = RunPlace & { head: string; skipped: string };

// The page in runListRepo.page's order for the API (created_at, then id, newest first: the index
// payroll_runs_company_idx), the company's total in the same statement. Prepared on the hot-reads pool.
const companyId = sql.placeholder('companyId');
const pageOfRuns = (columns: SQL, joins: SQL) => sql`SELECT r.id, ${rowVersion('r')} AS version, ${columns} ${countColumns},
      (SELECT count(*)::int FROM payroll_runs WHERE company_id = ${companyId}) AS total
    FROM (SELECT *, xmin FROM payroll_runs WHERE company_id = ${companyId}
          ORDER BY created_at DESC, id DESC LIMIT ${sql.placeholder('limit')} OFFSET ${sql.placeholder('offset')}) r
    ${joins} CROSS JOIN LATERAL (SELECT ${countSums} FROM paystub_run_counts rc WHERE rc.company_id = r.company_id AND rc.transaction_id = r.id) k
    ORDER BY r.created_at DESC, r.id DESC`;
const preparedPlaces = namedStatement<RunPlace>('payroll_runs_page_places', pageOfRuns(sql``, sql``));
const preparedTexts = namedStatement<RunTextParts>(
  'payroll_runs_page_texts',
  pageOfRuns(sql`${runHead} AS head, ${skipped} AS skipped,`, sql`CROSS JOIN LATERAL (SELECT ${storedTotals} OFFSET 0) t`),
);

export const runsJsonRepo = {
  /**
   * The unfiltered page's runs, newest first, with their versions and counts only: what a page whose
   * runs' texts are all kept needs (payroll-runs.list.service.ts). `total` is on every row (none past the end).
   */
  places: (executor: Executor, companyId: number, offset: number, limit: number): Promise<RunPlace[]> =>
    preparedPlaces(hotReads(executor), { companyId, offset, limit }),

  /**
   * The same page with each run's text as far as its row decides it, written by the database.
   * Filters and the console's orders stay on the JS path: each would be another statement to
   * prepare, for shapes rarely asked for.
   */
  texts: (executor: Executor, companyId: number, offset: number, limit: number): Promise<RunTextParts[]> =>
    preparedTexts(hotReads(executor), { companyId, offset, limit }),
};
