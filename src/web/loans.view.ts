// The Loans and advances page's markup (docs/console.md, "Employees"; docs/payroll.md, "Loans and
// salary advances"): the employee's loans with each active one's Skip, Settle and Write off forms,
// the New loan or advance form (keeping what was typed), and the confirm page of every change.
// Pure: service answers in, markup out.
import type { SessionRow } from '../modules/console-sessions/index.js';
import { naira } from '../tax-engine/money.js';
import { type Html, html } from './html.view.js';
import { csrfField, page } from './layout.view.js';
import type { WebContext } from './web.routes.js';

export type Loan = Awaited<ReturnType<WebContext['services']['loans']['loans']['show']>>['loan'];
/** What the New loan or advance form held. */
export type LoanTyped = { kind?: string; principal?: string; instalment?: string; start_period?: string; interest_rate_annual?: string };

export const KIND_LABEL: Record<string, string> = { loan: 'Loan', advance: 'Salary advance' };
const STATUS_BADGE: Record<string, Html> = {
  active: html`<span class="badge">Active</span>`,
  paid_off: html`<span class="badge ok">Paid off</span>`,
  written_off: html`<span class="badge off">Written off</span>`,
};

function loanRow(session: SessionRow, loan: Loan): Html {
  const active = loan.status === 'active';
  return html`<tr>
  <td>#${loan.id}</td><td>${KIND_LABEL[loan.kind] ?? loan.kind}</td><td class="num">${naira(loan.principal)}</td>
  <td class="num">${naira(loan.balance)}</td><td class="num">${naira(loan.instalment)}</td><td>${loan.start_period}</td>
  <td>${loan.interest_rate_annual} %</td><td>${STATUS_BADGE[loan.status] ?? loan.status}</td><td>${loan.skipped_periods.join(', ') || '—'}</td>
  <td>${
    active
      ? html`<form method="post" action="/console/loans/${loan.id}/skip" class="inline">${csrfField(session.csrfToken)}
      <label for="skip-${loan.id}" class="hint">Month to skip</label><input id="skip-${loan.id}" name="period" type="month" required>
      <button type="submit" class="secondary">Skip a period</button></form>
    <form method="post" action="/console/loans/${loan.id}/settle" class="inline">${csrfField(session.csrfToken)}<button type="submit" class="secondary">Settle</button></form>
    <form method="post" action="/console/loans/${loan.id}/write-off" class="inline">${csrfField(session.csrfToken)}<button type="submit" class="danger">Write off</button></form>`
      : loan.closed_balance !== null
        ? html`Closed at ${naira(loan.closed_balance)}`
        : ''
  }</td>
</tr>`;
}

/** The page's body: the employee's loans, then the New loan or advance form with what was typed. */
export function loansBody(session: SessionRow, userId: number, name: string, rows: Loan[], form: LoanTyped): Html {
  return html`<p><a href="/console/employees/${userId}/statutory">← ${name}</a></p>
<section class="card" aria-labelledby="loans-heading">
  <h2 id="loans-heading">Loans and advances of ${name}</h2>
  <p class="muted">Each regular run deducts the instalment (plus interest) after tax, at most the company's share of net pay; the balance falls when the paystub is paid.</p>
  ${
    rows.length === 0
      ? html`<p>No loans or advances.</p>`
      : html`<div class="table-wrap"><table>
    <thead><tr><th>Loan</th><th>Kind</th><th>Principal</th><th>Balance</th><th>Instalment</th><th>Starts</th><th>Interest a year</th><th>Status</th><th>Skipped</th><th>Actions</th></tr></thead>
    <tbody>${rows.map((loan) => loanRow(session, loan))}</tbody>
  </table></div>`
  }
</section>
<section class="card" aria-labelledby="new-loan-heading">
  <h2 id="new-loan-heading">New loan or advance</h2>
  <form method="post" action="/console/employees/${userId}/loans">
    ${csrfField(session.csrfToken)}
    <label for="kind">Kind <span class="hint">A salary advance: at most a month's wages, over at least 3 periods, no interest (Labour Act s.4)</span></label>
    <select id="kind" name="kind" required>
      <option value="loan"${form.kind === 'advance' ? '' : html` selected`}>Loan</option>
      <option value="advance"${form.kind === 'advance' ? html` selected` : ''}>Salary advance</option>
    </select>
    <label for="principal">Principal (₦)</label>
    <input id="principal" name="principal" type="text" inputmode="decimal" required value="${form.principal ?? ''}">
    <label for="instalment">Instalment per period (₦)</label>
    <input id="instalment" name="instalment" type="text" inputmode="decimal" required value="${form.instalment ?? ''}">
    <label for="start_period">First month repaid</label>
    <input id="start_period" name="start_period" type="month" required value="${form.start_period ?? ''}">
    <label for="interest_rate_annual">Interest, percent a year <span class="hint">Loans only; 0 for none</span></label>
    <input id="interest_rate_annual" name="interest_rate_annual" type="text" inputmode="decimal" value="${form.interest_rate_annual ?? '0'}">
    <button type="submit">Continue</button>
  </form>
</section>`;
}

/** A confirm page: the facts of what will be recorded, and a button posting them again with confirm=yes. */
export function loanConfirmPage(
  session: SessionRow,
  title: string,
  facts: [string, string][],
  action: string,
  hidden: Record<string, string>,
  button: string,
  back: string,
): Html {
  const body = html`<section class="card" aria-labelledby="confirm-heading">
  <h2 id="confirm-heading">${title}</h2>
  <dl class="facts">${facts.map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>`)}</dl>
  <form method="post" action="${action}">
    ${csrfField(session.csrfToken)}
    ${Object.entries(hidden).map(([field, value]) => html`<input type="hidden" name="${field}" value="${value}">`)}
    <input type="hidden" name="confirm" value="yes">
    <button type="submit">${button}</button>
    <a class="button secondary" href="${back}">Cancel</a>
  </form>
</section>`;
  return page({ title, session, section: 'employees', body });
}
