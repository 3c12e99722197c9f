// The overview's cards (docs/console.md, "Overview"): the last run and its totals, the next
// scheduled run, this month's remittances, and the chart. Pure: service answers in, markup out.
import { koboToString, naira } from '../tax-engine/money.js';
import { type Html, html, plural } from './html.view.js';
import { type ChartMonth, overviewChart } from './overview-chart.view.js';
import { type RunView, runBadge, runKind, runPath } from './payroll-runs.view.js';

export interface NextRun {
  schedule: string;
  pay_period_start: string;
  pay_period_end: string;
  payment_date: string;
  creation_date: string;
}

export interface DueRemittance {
  kind: string;
  due_date: string;
  amount: number;
  status: string | null;
}

const KIND_LABELS: Record<string, string> = { paye: 'PAYE', pension: 'Pension', nhf: 'NHF', nsitf: 'NSITF' };

export function lastRunCard(run: RunView | undefined): Html {
  if (!run)
    return html`<section class="card" aria-labelledby="last-run"><h2 id="last-run">Last payroll run</h2><p>No payroll runs yet.</p><a href="/console/payroll/new">Create a run</a></section>`;
  return html`<section class="card" aria-labelledby="last-run"><h2 id="last-run">Last payroll run</h2>
<p>${runBadge(run.status)} ${runKind(run)}, ${run.pay_period_start} to ${run.pay_period_end}</p>
<dl class="facts"><dt>Paystubs</dt><dd>${run.totals.employees ?? 0}</dd><dt>Gross pay</dt><dd>${naira(run.totals.gross_pay ?? 0)}</dd><dt>Tax withheld</dt><dd>${naira(run.totals.tax_withheld ?? 0)}</dd><dt>Net pay</dt><dd>${naira(run.totals.net_pay ?? 0)}</dd></dl>
<a href="${runPath(run.id)}" aria-label="Open payroll run ${run.id}">Open the run</a></section>`;
}

export function nextRunCard(next: NextRun | undefined, schedules: number): Html {
  const body =
    schedules === 0
      ? html`<p>No pay schedule: runs are created by hand.</p><a href="/console/payroll/new">New run</a>`
      : next
        ? html`<p class="figure">${next.payment_date}</p><p>${next.schedule}: ${next.pay_period_start} to ${next.pay_period_end}, created as a draft on ${next.creation_date}.</p>`
        : html`<p>Every pay schedule is paused.</p>`;
  return html`<section class="card" aria-labelledby="next-run"><h2 id="next-run">Next scheduled run</h2>${body}</section>`;
}

export function remittancesCard(month: string, due: DueRemittance[]): Html {
  const open = due.filter((entry) => entry.status === 'due' || entry.status === 'overdue');
  const total = open.reduce((sum, entry) => sum + BigInt(Math.round(entry.amount * 100)), 0n);
  return html`<section class="card" aria-labelledby="remittances-due"><h2 id="remittances-due">Remittances due this month</h2>${
    due.length === 0
      ? html`<p>Nothing falls due in ${month}.</p>`
      : html`<p class="figure">${naira(koboToString(total))}</p><p>${plural(open.length, 'remittance')} to file of ${due.length} due in ${month}${
          open.length > 0 ? html`: ${[...new Set(open.map((entry) => KIND_LABELS[entry.kind] ?? entry.kind))].join(', ')}` : ''
        }.</p>`
  }<a href="/console/compliance">Remittance schedules and due dates</a></section>`;
}

export function historySection(months: ChartMonth[]): Html {
  return html`<section class="card" aria-labelledby="history"><h2 id="history">Last 12 months</h2>${overviewChart(months)}</section>`;
}
