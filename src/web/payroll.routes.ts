// Payroll runs (docs/payroll-runs.md): the list with status badges (every P2 call is a run too), and
// one run with its facts, totals, skipped list, next action and paystubs. A processing run's page
// polls GET /console/payroll/<id>/status (JSON) every 2 s through the console script; a Refresh link
// works without it. Figures come from the payroll-runs and paystubs services.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { RUN_SORTS } from '../modules/payroll-runs/index.js';
import { typed } from '../platform/deps.js';
import { DomainError, notFound } from '../platform/errors.js';
import { koboToString, naira } from '../tax-engine/money.js';
import { type Html, html, plural } from './html.view.js';
import { type Flash, page } from './layout.view.js';
import { paystubBadgeOf, paystubItems, type RunView, runActions, runFacts, runPath, skippedList } from './payroll-runs.view.js';
import { type RunsSort, runsListBody } from './payroll-runs-list.view.js';
import { runRefusalText } from './run-notices.view.js';
import { createRunRows } from './run-rows.service.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

const RUNS_PER_PAGE = 20;
const PAYSTUBS_PER_PAGE = 50;
/** Skipped employees looked up by name on a run's page (the rest are shown by id). */
const SKIPPED_NAMED = 50;
export const RUN_NOT_FOUND_PAGE = 'There is no payroll run with that id in your company.';
const AMOUNTS = [
  'gross_pay',
  'tax_withheld',
  'pension_contribution',
  'nhf_contribution',
  'nhis_contribution',
  'other_deductions',
  'net_pay',
] as const;

/** Kobo of a figure the API returns as a number already rounded to kobo (summed without floats). */
const kobo = (value: number) => BigInt(Math.round(value * 100));

const PageQuery = Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })) });
export const RunParams = Type.Object({ transactionId: Type.String({ minLength: 1, maxLength: 64 }) });

/** The run and the page of its paystubs; another company's run, or none at all, is not found (never leaked). */
export function runReader(ctx: WebContext) {
  const { runs } = ctx.services.payrollRuns;
  const { paystubs } = ctx.services.paystubs;
  return async (companyId: number, id: string, pageNo: number) => {
    let run: RunView;
    try {
      run = (await runs.show(companyId, id)).run as RunView;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'not_found') throw notFound(RUN_NOT_FOUND_PAGE);
      throw error;
    }
    const stubs = (await paystubs.runPaystubs(companyId, id, pageNo, PAYSTUBS_PER_PAGE)).data;
    return { run, stubs };
  };
}

/** The page of one run; the action routes render it too, with their refusal as the flash. */
export function runPageRenderer(ctx: WebContext) {
  const read = runReader(ctx);
  // Names of the first skipped employees, in one statement (an id that names no employee of the
  // company stays an id).
  const skippedNames = (companyId: number, run: RunView) =>
    ctx.services.users.users.names(
      companyId,
      run.skipped.slice(0, SKIPPED_NAMED).map(({ user_id }) => user_id),
    );
  // `approvalToken`: the page was opened from an approval e-mail's link (run-approval.routes.ts).
  return async (session: SessionRow, id: string, pageNo: number, flash: Flash = {}, approvalToken?: string): Promise<Html> => {
    const [{ run, stubs }, balance] = await Promise.all([
      read(session.companyId, id, pageNo),
      ctx.services.wallet.wallet.balanceDecimal(session.companyId),
    ]);
    const names = await skippedNames(session.companyId, run);
    const rows = stubs.data;
    const total = (field: (typeof AMOUNTS)[number]) => rows.reduce((sum, row) => sum + kobo(row[field]), 0n);
    const single = stubs.last_page <= 1;
    const pageQuery = pageNo > 1 ? `?page=${pageNo}` : '';
    const name = (row: (typeof rows)[number]) => {
      const user = row.user as { first_name?: string; last_name?: string; email?: string } | null;
      return user ? html`${user.first_name} ${user.last_name}<br><span class="muted">${user.email}</span>` : html`User ${row.user_id}`;
    };
    // What a repeated link opens, for a screen reader's list of links ("Payslip PDF for Ada Obi").
    const plainName = (row: (typeof rows)[number]) => {
      const user = row.user as { first_name?: string; last_name?: string } | null;
      return user ? `${user.first_name} ${user.last_name}` : `user ${row.user_id}`;
    };
    const hasItems = rows.some((row) => row.items.length > 0);
    const body = html`<p><a href="/console/payroll">← All payroll runs</a></p>
${runFacts(run)}
${runActions(session, run, balance, approvalToken, `${runPath(id)}/status${pageQuery}`, `${runPath(id)}${pageQuery}`)}
${skippedList(run, names)}
<h2 id="paystubs">Paystubs</h2>
<p>${plural(stubs.total, 'paystub')} in this run.${hasItems ? " Each employee's pay items are listed under their name." : ''}${
      stubs.total > (run.counts.cancelled ?? 0)
        ? html` <a class="button" href="${runPath(id)}/payslips.zip" download>Download payslips</a> <span class="muted">(ZIP, one PDF per paystub that is not cancelled)</span>`
        : ''
    }</p>
<div class="table-wrap"><table><caption>Paystubs of run ${id}</caption>
<thead><tr><th scope="col">Employee</th><th scope="col">Pay period</th><th scope="col" class="num">Gross</th><th scope="col" class="num">Tax</th><th scope="col" class="num">Pension</th><th scope="col" class="num">NHF</th><th scope="col" class="num">NHIS</th><th scope="col" class="num">Other deduc&shy;tions</th><th scope="col" class="num">Net pay</th><th scope="col">Status</th><th scope="col">Payslip</th></tr></thead>
<tbody>${rows.map(
      (row) =>
        html`<tr><td>${name(row)}${paystubItems(row.items)}</td><td class="nowrap">${row.pay_period_start}<br>to ${row.pay_period_end}</td>${AMOUNTS.map((field) => html`<td class="num">${naira(koboToString(kobo(row[field])))}</td>`)}<td data-paystub="${row.id}"><span class="badge ${paystubBadgeOf(row.status)[0]}">${paystubBadgeOf(row.status)[1]}</span><span class="reason muted">${row.failure_reason ? html`<br>${row.failure_reason}` : ''}</span></td><td>${
          row.status === 'cancelled'
            ? '—'
            : html`<a href="/console/paystubs/${row.id}/payslip" download aria-label="Payslip PDF for ${plainName(row)}">PDF</a>`
        }</td></tr>`,
    )}</tbody>
<tfoot><tr><td colspan="2">${single ? 'Run totals' : `Totals of this page (${plural(rows.length, 'paystub')})`}</td>${AMOUNTS.map((field) => html`<td class="num">${naira(koboToString(total(field)))}</td>`)}<td></td><td></td></tr></tfoot>
</table></div>
${
  single
    ? ''
    : html`<nav class="pager" aria-label="Pages">${pageNo > 1 ? html`<a href="?page=${pageNo - 1}" rel="prev">← Previous</a>` : ''}<span>Page ${pageNo} of ${stubs.last_page}</span>${
        pageNo < stubs.last_page ? html`<a href="?page=${pageNo + 1}" rel="next">Next →</a>` : ''
      }</nav>`
}`;
    return page({ title: `Payroll run ${id}`, session, section: 'payroll', body, flash });
  };
}

/** Notices after a successful action (Post/Redirect/Get: `?done=<action>`). */
const DONE: Record<string, string> = {
  created:
    'Draft run created. Check the totals, the skipped employees and the paystubs; another administrator then approves it here, signed in as themselves.',
  off_cycle_created:
    'Off-cycle draft run created: it pays the items below only. Check them; another administrator then approves it here, signed in as themselves.',
  approved: 'Run approved. It can now be paid from the wallet.',
  paying: 'Payment started: the wallet was debited and the transfers are under way.',
  retrying: 'The failed paystubs are being sent again; only they were funded.',
  // Loaded by the page script (or Refresh) once a run being paid leaves processing.
  settled: 'Payment finished: the run and each paystub show how it ended (a failed paystub can be sent again with Retry).',
  cancelled: 'Run cancelled. Its paystubs stay visible and no longer block their employees and period.',
};

export async function payrollRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const runRows = createRunRows(ctx.services.payrollRuns.runs);
  const renderRun = runPageRenderer(ctx);
  const read = runReader(ctx);

  app.get(
    '/payroll',
    {
      schema: {
        hide: true,
        querystring: Type.Object({
          page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
          sort: Type.Optional(Type.Union(RUN_SORTS.map((key) => Type.Literal(key)))),
          order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
        }),
      },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const pageNo = request.query.page ?? 1;
      const sort: RunsSort = { key: request.query.sort ?? 'created', order: request.query.order ?? 'desc' };
      const order = { key: sort.key, direction: sort.order };
      const { rows, lastPage } = await runRows(session.companyId, pageNo, RUNS_PER_PAGE, order);
      const body = runsListBody(rows, { sort, pageNo, lastPage });
      return sendHtml(reply, page({ title: 'Payroll runs', session, section: 'payroll', body }));
    },
  );

  app.get(
    '/payroll/:transactionId',
    {
      schema: {
        hide: true,
        params: RunParams,
        querystring: Type.Object({
          page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
          done: Type.Optional(Type.String({ maxLength: 20 })),
          // A refused action's code (run-notices.view.ts); the text is chosen here, never read from the URL.
          notice: Type.Optional(Type.String({ maxLength: 30 })),
        }),
      },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const notice = request.query.done && Object.hasOwn(DONE, request.query.done) ? DONE[request.query.done] : undefined;
      const refusal = runRefusalText(request.query.notice);
      const flash = { ...(notice ? { notice } : {}), ...(refusal ? { error: refusal } : {}) };
      return sendHtml(reply, await renderRun(session, request.params.transactionId, request.query.page ?? 1, flash));
    },
  );

  // What the page script polls while a run is processing: the run's status and counts, and the
  // status of each paystub on the page it shows.
  app.get(
    '/payroll/:transactionId/status',
    { schema: { hide: true, params: RunParams, querystring: PageQuery }, preHandler: guard },
    async (request) => {
      const session = sessionOf(request);
      const { run, stubs } = await read(session.companyId, request.params.transactionId, request.query.page ?? 1);
      return {
        status: run.status,
        counts: run.counts,
        paystubs: stubs.data.map((row) => ({ id: row.id, badge: paystubBadgeOf(row.status), failure_reason: row.failure_reason })),
      };
    },
  );
}
