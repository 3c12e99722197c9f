// Console → Payroll, the list (docs/console.md, "Payroll runs"): a row per run with its kind,
// period, status badge and totals, newest first unless the Pay period or Created header (sort
// links, sort-header.view.ts) asks otherwise; the pager keeps the order.
import type { ListedRunRow, RunSort } from '../modules/payroll-runs/index.js';
import { naira } from '../tax-engine/money.js';
import { type Html, html, when } from './html.view.js';
import { runBadge, runKind, runPath } from './payroll-runs.view.js';
import { type ListSort, sortHeader } from './sort-header.view.js';

export type RunsSort = ListSort<RunSort> & { key: RunSort };

const CAPTIONS: Record<RunSort, Record<'asc' | 'desc', string>> = {
  created: { desc: 'Payroll runs, newest first', asc: 'Payroll runs, oldest first' },
  pay_period: { desc: 'Payroll runs, latest pay period first', asc: 'Payroll runs, earliest pay period first' },
};

/** One run's row of the table. */
export function runRow(run: ListedRunRow): Html {
  return html`<tr><td><a href="${runPath(run.id)}">${run.id}</a></td><td>${runKind(run)}</td><td class="nowrap">${run.pay_period_start}<br>to ${run.pay_period_end}</td><td>${when(run.created_at)}</td><td>${runBadge(run.status)}</td><td class="num">${run.employees ?? 0}</td><td class="num">${naira(run.gross_pay ?? 0)}</td><td class="num">${naira(run.tax_withheld ?? 0)}</td><td class="num">${naira(run.net_pay ?? 0)}</td></tr>`;
}

function runsTable(rows: Html[], sort: RunsSort): Html {
  const sortBy = (label: string, key: RunSort) => sortHeader({ path: '/console/payroll', label, key, sort, params: {}, first: 'desc' });
  return html`<div class="table-wrap"><table><caption>${CAPTIONS[sort.key][sort.order]}</caption>
<thead><tr><th scope="col">Run</th><th scope="col">Kind</th>${sortBy('Pay period', 'pay_period')}${sortBy('Created', 'created')}<th scope="col">Status</th><th scope="col" class="num">Paystubs</th><th scope="col" class="num">Gross pay</th><th scope="col" class="num">Tax withheld</th><th scope="col" class="num">Net pay</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

/** The list page's body: the New run buttons, the table of this page's runs (runRow's), and the pager. */
export function runsListBody(rows: Html[], list: { sort: RunsSort; pageNo: number; lastPage: number }): Html {
  const { sort, pageNo, lastPage } = list;
  // The default order (newest created first) keeps the short address; any other travels with the pages.
  const sorted = sort.key === 'created' && sort.order === 'desc' ? '' : `&sort=${sort.key}&order=${sort.order}`;
  const pageLink = (n: number, rel: 'prev' | 'next', text: string) =>
    html`<a href="/console/payroll?page=${n}${sorted}" rel="${rel}">${text}</a>`;
  return html`<p><a class="button" href="/console/payroll/new">New run</a> <a class="button secondary" href="/console/payroll/off-cycle/new">New off-cycle run</a></p>
<p class="muted">A run is made here (or by POST /api/payroll-runs) from the employees' salaries; every POST /api/paystubs call is a run too. An off-cycle run pays pay items only (a bonus, a correction, a leaver's final pay), outside the monthly run. Each is approved by a second administrator, then paid from the wallet.</p>
${rows.length === 0 ? html`<p>${pageNo === 1 ? 'No payroll runs yet.' : 'No payroll runs on this page.'}</p>` : runsTable(rows, sort)}
<nav class="pager" aria-label="Pages">${pageNo > 1 ? pageLink(pageNo - 1, 'prev', '← Previous') : ''}${pageNo < lastPage ? pageLink(pageNo + 1, 'next', 'Next →') : ''}</nav>`;
}
