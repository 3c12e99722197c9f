// Payroll runs (one P2 call each, sharing a transaction_id) with their totals, and the paystubs of a
// run. Figures come from the paystubs service; run totals are exact SQL sums (decimal strings).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { koboToString, naira } from '../payroll/money.js';
import { typed } from '../platform/deps.js';
import { notFound } from '../platform/errors.js';
import { html, when } from './html.js';
import { page } from './layout.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.plugin.js';

const RUNS_PER_PAGE = 20;
const PAYSTUBS_PER_PAGE = 50;
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

export async function payrollRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { paystubs } = ctx.services.payroll;

  app.get(
    '/payroll',
    {
      schema: { hide: true, querystring: Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })) }) },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const pageNo = request.query.page ?? 1;
      // One extra row tells whether a next page exists without counting every run.
      const runs = await paystubs.listRuns(session.companyId, pageNo, RUNS_PER_PAGE + 1);
      const more = runs.length > RUNS_PER_PAGE;
      const shown = runs.slice(0, RUNS_PER_PAGE);
      const body = html`<p class="muted">Each payroll run is one POST /api/paystubs call; its paystubs share the run's transaction id.</p>
${
  shown.length === 0
    ? html`<p>${pageNo === 1 ? 'No payroll runs yet.' : 'No payroll runs on this page.'}</p>`
    : html`<div class="table-wrap"><table><caption>Payroll runs, newest first</caption>
<thead><tr><th scope="col">Run</th><th scope="col">Created</th><th scope="col" class="num">Paystubs</th><th scope="col" class="num">Gross pay</th><th scope="col" class="num">Tax withheld</th><th scope="col" class="num">Net pay</th></tr></thead>
<tbody>${shown.map(
        (run) =>
          html`<tr><td><a href="/console/payroll/${encodeURIComponent(run.transaction_id)}">${run.transaction_id}</a></td><td>${when(run.created_at)}</td><td class="num">${run.paystubs}</td><td class="num">${naira(run.gross_pay)}</td><td class="num">${naira(run.tax_withheld)}</td><td class="num">${naira(run.net_pay)}</td></tr>`,
      )}</tbody></table></div>`
}
<nav class="pager" aria-label="Pages">${pageNo > 1 ? html`<a href="/console/payroll?page=${pageNo - 1}" rel="prev">← Newer runs</a>` : ''}${more ? html`<a href="/console/payroll?page=${pageNo + 1}" rel="next">Older runs →</a>` : ''}</nav>`;
      return sendHtml(reply, page({ title: 'Payroll runs', session, section: 'payroll', body }));
    },
  );

  app.get(
    '/payroll/:transactionId',
    {
      schema: {
        hide: true,
        params: Type.Object({ transactionId: Type.String({ minLength: 1, maxLength: 64 }) }),
        querystring: Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })) }),
      },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const { transactionId } = request.params;
      const pageNo = request.query.page ?? 1;
      const result = (await paystubs.runPaystubs(session.companyId, transactionId, pageNo, PAYSTUBS_PER_PAGE)).data;
      // Another company's run, or none at all: not found, never leaked.
      if (result.total === 0) throw notFound('There is no payroll run with that id in your company.');
      const rows = result.data;
      const total = (field: (typeof AMOUNTS)[number]) => rows.reduce((sum, row) => sum + kobo(row[field]), 0n);
      const single = result.last_page === 1;
      const name = (row: (typeof rows)[number]) => {
        const user = row.user as { first_name?: string; last_name?: string; email?: string } | null;
        return user ? html`${user.first_name} ${user.last_name}<br><span class="muted">${user.email}</span>` : html`User ${row.user_id}`;
      };
      const body = html`<p><a href="/console/payroll">← All payroll runs</a></p>
<p>${result.total} paystub${result.total === 1 ? '' : 's'} in this run.</p>
<div class="table-wrap"><table><caption>Paystubs of run ${transactionId}</caption>
<thead><tr><th scope="col">Employee</th><th scope="col">Pay period</th><th scope="col" class="num">Gross</th><th scope="col" class="num">Tax</th><th scope="col" class="num">Pension</th><th scope="col" class="num">NHF</th><th scope="col" class="num">NHIS</th><th scope="col" class="num">Other deduc&shy;tions</th><th scope="col" class="num">Net pay</th><th scope="col">Status</th></tr></thead>
<tbody>${rows.map(
        (row) =>
          html`<tr><td>${name(row)}</td><td class="nowrap">${row.pay_period_start}<br>to ${row.pay_period_end}</td>${AMOUNTS.map((field) => html`<td class="num">${naira(koboToString(kobo(row[field])))}</td>`)}<td><span class="badge ${row.status === 'paid' ? 'ok' : 'warn'}">${row.status}</span></td></tr>`,
      )}</tbody>
<tfoot><tr><td colspan="2">${single ? 'Run totals' : `Totals of this page (${rows.length} paystubs)`}</td>${AMOUNTS.map((field) => html`<td class="num">${naira(koboToString(total(field)))}</td>`)}<td></td></tr></tfoot>
</table></div>
${
  single
    ? ''
    : html`<nav class="pager" aria-label="Pages">${pageNo > 1 ? html`<a href="?page=${pageNo - 1}" rel="prev">← Previous</a>` : ''}<span>Page ${pageNo} of ${result.last_page}</span>${
        pageNo < result.last_page ? html`<a href="?page=${pageNo + 1}" rel="next">Next →</a>` : ''
      }</nav>`
}`;
      return sendHtml(reply, page({ title: `Payroll run ${transactionId}`, session, section: 'payroll', body }));
    },
  );
}
