// The console's overview (GET /console, docs/console.md "Overview"): employees, wallet balance,
// invoices waiting, the last run, the next scheduled run, this month's remittances and twelve
// months of net pay and tax. Every figure comes from the features' services, read in parallel.
import type { FastifyInstance } from 'fastify';
import { typed } from '../platform/deps.js';
import { lagosDate } from '../platform/format.js';
import { naira } from '../tax-engine/money.js';
import { html } from './html.view.js';
import { page } from './layout.view.js';
import { historySection, lastRunCard, type NextRun, nextRunCard, remittancesCard } from './overview.view.js';
import type { RunView } from './payroll-runs.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

/** The first day of the month before `today`'s (a month's remittances fall due in the next one). */
function previousMonthStart(today: string): string {
  const date = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() - 1);
  return date.toISOString().slice(0, 10);
}

function monthEnd(today: string): string {
  const date = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + 1, 0);
  return date.toISOString().slice(0, 10);
}

export async function overviewRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { services } = ctx;

  app.get('/', { schema: { hide: true }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const today = lagosDate();
    const month = today.slice(0, 7);
    const [people, balance, awaiting, lastRuns, schedules, calendar, history] = await Promise.all([
      services.users.users.list(session.companyId, { page: 1, per_page: 1 }),
      services.wallet.wallet.balanceDecimal(session.companyId),
      services.invoices.invoices.awaitingApproval(session.companyId, 100),
      services.payrollRuns.runs.list(session.companyId, { page: 1, per_page: 1 }, { page: 1 }),
      services.paySchedules.paySchedules.list(session.companyId),
      services.remittances.filings.calendar(session.companyId, { from: previousMonthStart(today), to: monthEnd(today) }),
      services.payrollRuns.history.monthlyTotals(session.companyId),
    ]);
    // The soonest payment date of the active schedules (a paused one has no next period).
    const next = schedules.data
      .flatMap((s) => (s.next_period ? [{ schedule: s.name, ...s.next_period } satisfies NextRun] : []))
      .sort((a, b) => a.payment_date.localeCompare(b.payment_date))[0];
    const due = calendar.data.filter((entry) => entry.due_date.startsWith(month));
    const lastRun = lastRuns.data.data[0] as RunView | undefined;
    const body = html`<div class="grid">
  ${lastRunCard(lastRun)}
  ${nextRunCard(next, schedules.data.length)}
  ${remittancesCard(month, due)}
  <section class="card"><h2>Wallet balance</h2><p class="figure">${naira(balance)}</p><a href="/console/wallet">Wallet and top-ups</a></section>
  <section class="card"><h2>Employees</h2><p class="figure">${people.totalResults}</p><a href="/console/employees">See employees</a></section>
  <section class="card"><h2>Invoices awaiting approval</h2><p class="figure">${awaiting.length >= 100 ? '100+' : awaiting.length}</p><a href="/console/invoices">Review invoices</a></section>
  <section class="card"><h2>API access</h2><p>${session.companyApiAccess ? 'Enabled' : 'Disabled by the operator'}.</p><a href="/console/security/api">Manage the API token</a></section>
</div>
${historySection(history)}`;
    return sendHtml(reply, page({ title: 'Overview', session, section: 'overview', body }));
  });
}
