// Pieces of the payroll-run pages: status badges, the run's facts and totals, the skipped list,
// the actions its status allows (each a POST form with the session's CSRF secret), and the
// paystubs table whose status cells the console script refreshes while the run is processing.

import type { SessionRow } from '../modules/console-sessions/index.js';
import type { DomainError } from '../platform/errors.js';
import { koboToString, naira, toKobo } from '../tax-engine/money.js';
import { type Html, html, plural, when } from './html.view.js';
import { csrfField } from './layout.view.js';

export type Badge = [cls: string, label: string];
export const badge = ([cls, label]: Badge) => html`<span class="badge ${cls}">${label}</span>`;

export const RUN_BADGES: Record<string, Badge> = {
  draft: ['info', 'Draft'],
  approved: ['info', 'Approved'],
  processing: ['warn', 'Processing'],
  paid: ['ok', 'Paid'],
  partially_paid: ['warn', 'Partially paid'],
  failed: ['bad', 'Failed'],
  cancelled: ['off', 'Cancelled'],
};
export const PAYSTUB_BADGES: Record<string, Badge> = {
  unpaid: ['off', 'Unpaid'],
  held: ['warn', 'Held'],
  processing: ['warn', 'Processing'],
  paid: ['ok', 'Paid'],
  failed: ['bad', 'Failed'],
  cancelled: ['off', 'Cancelled'],
};
export const runBadge = (status: string) => badge(RUN_BADGES[status] ?? ['off', status]);
export const paystubBadgeOf = (status: string): Badge => PAYSTUB_BADGES[status] ?? ['off', status];

/** The run as the payroll-runs service serializes it (docs/payroll-runs.md, "The run object"). */
export interface RunView {
  id: string;
  status: string;
  kind: 'regular' | 'off_cycle';
  reason: string | null;
  pay_period_start: string;
  pay_period_end: string;
  payment_date: string | null;
  created_by_email: string | null;
  created_by_user_id: number | null;
  approved_by_email: string | null;
  approved_by_user_id: number | null;
  approved_via: 'console' | 'email_link' | 'token' | null;
  approved_at: string | null;
  paid_at: string | null;
  cancelled_at: string | null;
  created_at: string;
  totals: Record<string, number>;
  counts: Record<string, number>;
  skipped: { user_id: number; reason: string }[];
}

export const runPath = (id: string) => `/console/payroll/${encodeURIComponent(id)}`;

/** A service refusal as the page says it: the message, each field's messages, and a short balance's figures. */
export function errorMessage(error: DomainError): Html {
  const details = (error.details ?? {}) as {
    required?: string;
    available?: string;
    shortfall?: string;
    overlaps?: {
      paystub_id: number;
      user_id: number;
      other_paystub_id: number;
      period: { pay_period_start: string; pay_period_end: string };
    }[];
  };
  if (details.overlaps) {
    return html`${error.message} Nothing was approved:<ul>${details.overlaps.map(
      (o) =>
        html`<li>User ${o.user_id}: paystub ${o.paystub_id} overlaps paystub ${o.other_paystub_id} (${o.period.pay_period_start} to ${o.period.pay_period_end}).</li>`,
    )}</ul>Cancel this run, or cancel the other run if it was the mistake.`;
  }
  if (details.shortfall) {
    return html`${error.message} The run needs ${naira(details.required)}; the wallet holds ${naira(details.available)}, so it is
<strong>${naira(details.shortfall)}</strong> short. <a href="/console/wallet?amount=${details.shortfall}">Top up the wallet</a>, then pay again.`;
  }
  const fields = Object.values(error.fields ?? {}).flat();
  if (fields.length > 1) return html`Nothing was changed:<ul>${fields.map((message) => html`<li>${message}</li>`)}</ul>`;
  return html`${fields[0] ?? error.message}`;
}

/** Why an off-cycle run is paid (docs/payroll-runs.md, "Off-cycle runs"), as the console says it. */
export const OFF_CYCLE_REASON_LABELS: Record<string, string> = {
  bonus: 'bonus',
  correction: 'correction',
  final_pay: 'final pay',
  other: 'other',
};

/** `Regular`, or `Off-cycle: bonus`. */
export const runKind = (run: Pick<RunView, 'kind' | 'reason'>) =>
  run.kind === 'off_cycle' ? `Off-cycle: ${OFF_CYCLE_REASON_LABELS[run.reason ?? ''] ?? run.reason ?? 'other'}` : 'Regular';

/** How a run was approved, as its page says it. */
const APPROVED_VIA: Record<string, string> = {
  console: 'in the console',
  email_link: 'in the console, from the approval e-mail',
  token: 'through the API token: the calling platform vouched for the approver',
};

const FACT_TOTALS: [string, string][] = [
  ['gross_pay', 'Gross pay'],
  ['regular_gross', 'Regular gross'],
  ['irregular_gross', 'Irregular gross'],
  ['tax_withheld', 'Tax withheld'],
  ['employee_pension', 'Employee pension'],
  ['nhf', 'NHF'],
  ['other_deductions', 'Other deductions'],
  ['reimbursements', 'Reimbursements'],
  ['net_pay', 'Net pay'],
  ['employer_cost', 'Employer cost'],
];

export function runFacts(run: RunView): Html {
  const count = (status: string) => html`<span data-count="${status}">${run.counts[status] ?? 0}</span>`;
  return html`<div class="grid">
<section class="card" aria-labelledby="run-facts"><h2 id="run-facts">Run</h2><dl class="facts">
<dt>Status</dt><dd data-run-status>${runBadge(run.status)}</dd>
<dt>Kind</dt><dd data-run-kind>${runKind(run)}</dd>
<dt>Pay period</dt><dd>${run.pay_period_start} to ${run.pay_period_end}</dd>
<dt>Payment date</dt><dd>${run.payment_date ?? '—'}</dd>
<dt>Created</dt><dd>${when(run.created_at)}${run.created_by_email ? ` by ${run.created_by_email}` : ''}</dd>
${run.approved_at ? html`<dt>Approved</dt><dd>${when(run.approved_at)} by ${run.approved_by_email}${run.approved_via ? html` <span class="muted">(${APPROVED_VIA[run.approved_via]})</span>` : ''}</dd>` : ''}
${run.paid_at ? html`<dt>Finished</dt><dd>${when(run.paid_at)}</dd>` : ''}
${run.cancelled_at ? html`<dt>Cancelled</dt><dd>${when(run.cancelled_at)}</dd>` : ''}
<dt>Paystubs</dt><dd>${count('paid')} paid, ${count('processing')} processing, ${count('failed')} failed, ${count('unpaid')} unpaid, ${count('held')} held, ${count('cancelled')} cancelled</dd>
</dl></section>
<section class="card" aria-labelledby="run-totals"><h2 id="run-totals">Totals (${plural(run.totals.employees ?? 0, 'employee')})</h2><dl class="facts">
${FACT_TOTALS.map(([field, label]) => html`<dt>${label}</dt><dd>${naira(run.totals[field] ?? 0)}</dd>`)}
</dl></section>
</div>`;
}

/** A paystub's items as P1 lists them (docs/payroll.md, "Pay items"): name, amount, description; deductions marked. */
export interface PaystubItemView {
  name: string;
  amount: number;
  treatment: string;
  cash: boolean;
  description: string | null;
}

export function paystubItems(items: readonly PaystubItemView[]): Html {
  if (items.length === 0) return html``;
  return html`<ul class="pay-items" aria-label="Pay items">${items.map(
    (item) =>
      html`<li>${item.name}: <span class="nowrap">${item.treatment === 'deduction' ? '−' : ''}${naira(item.amount)}</span>${
        item.cash ? '' : html` <span class="muted">(not paid in cash)</span>`
      }${item.description ? html` <span class="muted">(${item.description})</span>` : ''}</li>`,
  )}</ul>`;
}

export function skippedList(run: RunView, names: ReadonlyMap<number, string>): Html {
  if (run.skipped.length === 0) return html``;
  return html`<h2 id="skipped">Skipped employees (${run.skipped.length})</h2>
<p class="muted">These employees were asked for or eligible but got no paystub in this run.</p>
<div class="table-wrap"><table aria-labelledby="skipped"><thead><tr><th scope="col">Employee</th><th scope="col">Reason</th></tr></thead>
<tbody>${run.skipped.map((item) => html`<tr><td>${names.get(item.user_id) ?? ''}${names.has(item.user_id) ? html`<br><span class="muted">User ${item.user_id}</span>` : `User ${item.user_id}`}</td><td>${item.reason}</td></tr>`)}</tbody></table></div>`;
}

const actionForm = (session: SessionRow, run: RunView, action: string, label: string, options: { cls?: string; confirm?: string } = {}) =>
  html`<form class="inline-form" method="post" action="${runPath(run.id)}/${action}"${options.confirm ? html` data-confirm="${options.confirm}"` : ''}>${csrfField(session.csrfToken)}<button type="submit"${options.cls ? html` class="${options.cls}"` : ''}>${label}</button></form>`;

/** Who created the run (by user; runs from before creators were users: by e-mail). */
function createdBy(session: SessionRow, run: RunView): boolean {
  if (run.created_by_user_id !== null) return run.created_by_user_id === session.userId;
  return run.created_by_email !== null && run.created_by_email.toLowerCase() === session.email.toLowerCase();
}

/**
 * Approve (maker-checker): the signed-in administrator approves as themselves; the creator of a run
 * cannot. `approvalToken` is carried when the page was opened from an approval e-mail's link.
 */
function approveForm(session: SessionRow, run: RunView, approvalToken: string | undefined): Html {
  if (createdBy(session, run))
    return html`<p>You created this run, so another administrator must approve it (maker-checker): they sign in to the console as themselves and approve it on this page.</p>`;
  return html`<p>Check the totals, the skipped employees and the paystubs below, then approve. You approve as yourself (${session.email}); the run records who approved it and how.</p>
<form method="post" action="${runPath(run.id)}/approve" class="stack">${csrfField(session.csrfToken)}${
    approvalToken ? html`<input type="hidden" name="approval_token" value="${approvalToken}">` : ''
  }
<button type="submit">Approve run</button>
</form>`;
}

/** Paystubs of the run may wait for approval of a new bank account: held, or failed (a retry needs it when the account changed). */
export const releasable = (run: RunView) => run.counts.held > 0 || run.status === 'partially_paid' || run.status === 'failed';

/** Approving a run past draft: releases held paystubs (and failed ones whose account changed) to the new accounts. */
const releaseCard = (session: SessionRow, run: RunView, approvalToken: string | undefined) =>
  html`<section class="card" aria-labelledby="release"><h2 id="release">Approve new bank accounts</h2>
<p>${run.counts.held > 0 ? `${plural(run.counts.held, 'paystub')} ${run.counts.held === 1 ? 'is' : 'are'} held: the employee's bank account changed after approval. ` : ''}Approving the run again pays them to the new account${run.status === 'approved' || run.status === 'processing' ? '' : ' (a retry of a failed paystub whose account changed needs this first)'}.</p>
${approveForm(session, run, approvalToken)}</section>`;

const settledUrl = (url: string) => `${url}${url.includes('?') ? '&' : '?'}done=settled`;

/** What can be done next, by status; `balance` is the wallet's exact decimal balance. */
export function runActions(
  session: SessionRow,
  run: RunView,
  balance: string,
  approvalToken: string | undefined,
  pollUrl: string,
  refreshUrl: string,
): Html {
  const cancel = actionForm(session, run, 'cancel', 'Cancel run', { cls: 'secondary', confirm: 'Cancel this payroll run?' });
  const release = run.status !== 'draft' && releasable(run) ? releaseCard(session, run, approvalToken) : html``;
  return html`${release}${nextStep(session, run, balance, approvalToken, pollUrl, refreshUrl, cancel)}`;
}

function nextStep(
  session: SessionRow,
  run: RunView,
  balance: string,
  approvalToken: string | undefined,
  pollUrl: string,
  refreshUrl: string,
  cancel: Html,
): Html {
  switch (run.status) {
    case 'draft':
      return html`<section class="card" aria-labelledby="next-step"><h2 id="next-step">Approve</h2>${approveForm(session, run, approvalToken)} ${cancel}</section>`;
    case 'approved': {
      const needed = toKobo(String(run.totals.net_pay ?? 0)) ?? 0n;
      const held = toKobo(balance) ?? 0n;
      return html`<section class="card" aria-labelledby="next-step"><h2 id="next-step">Pay</h2><dl class="facts">
<dt>Wallet balance</dt><dd data-wallet-balance>${naira(balance)}</dd><dt>Net pay of the run</dt><dd>${naira(run.totals.net_pay ?? 0)}</dd></dl>
${
  held < needed
    ? html`<div class="warning" data-shortfall>The wallet is ${naira(koboToString(needed - held))} short of the run's net pay. <a href="/console/wallet?amount=${koboToString(needed - held)}">Top up the wallet</a></div>`
    : ''
}<p class="muted">Paystubs of employees without a usable bank account are not funded; they fail with a reason and can be retried after the account is fixed.</p>
${actionForm(session, run, 'pay', 'Pay now', { confirm: 'Send the salaries of this run from the wallet now?' })} ${cancel}</section>`;
    }
    case 'processing':
      // The page loaded once the run leaves processing carries `done=settled`: a notice says the
      // payment finished (paid, or which paystubs failed) instead of the page changing silently.
      return html`<section class="card" aria-labelledby="next-step" data-poll="${pollUrl}" data-done="${settledUrl(refreshUrl)}"><h2 id="next-step">Payment in progress</h2>
<p>Transfers are being made; the statuses below update by themselves. <a href="${settledUrl(refreshUrl)}">Refresh</a></p></section>`;
    case 'partially_paid':
    case 'failed':
      return html`<section class="card" aria-labelledby="next-step"><h2 id="next-step">Retry</h2>
<p>Fix the bank accounts of the failed paystubs' employees, then send those paystubs again (only they are funded).</p>
${actionForm(session, run, 'retry', 'Retry failed paystubs')}</section>`;
    default:
      return html``;
  }
}
