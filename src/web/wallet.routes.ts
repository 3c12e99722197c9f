// The wallet page: balance, ledger, top-ups and Top up through the provider's checkout. Every
// figure comes from the wallet service.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { typed } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { naira } from '../tax-engine/money.js';
import { type Html, html, when } from './html.view.js';
import { csrfField, type Flash, page } from './layout.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

type Badge = [cls: string, label: string];

/** How often the wallet page reloads while a top-up is pending. */
export const WALLET_REFRESH_SECONDS = 5;

/**
 * A ledger entry's reference; a payroll debit's (`<run id>-A<attempt>`, payroll-runs/transfers/funding.service.ts)
 * links to the run it paid.
 */
function ledgerReference(entry: { kind: string; transaction_reference: string | null; reference: string | null }): Html | string {
  const run = entry.kind === 'payroll_debit' && entry.reference ? /^(.+)-A\d+$/.exec(entry.reference)?.[1] : undefined;
  const reference = run ? entry.reference : entry.transaction_reference;
  if (!reference) return '—';
  return run
    ? html`<a href="/console/payroll/${encodeURIComponent(run)}" aria-label="Payroll run ${run}, paid by debit ${reference}">${reference}</a>`
    : reference;
}

const badge = ([cls, label]: Badge) => html`<span class="badge ${cls}">${label}</span>`;

/** Sandbox top-ups are test money (docs/wallet.md, "The wallet rules"): every place that shows them says so. */
const SANDBOX_BADGE: Badge = ['info', 'Sandbox'];
const TX_BADGE: Record<string, Badge> = { success: ['ok', 'Paid'], pending: ['warn', 'Pending'], failed: ['bad', 'Failed'] };

/** The wallet page; the Top up route renders it too, with its refusal as the flash. */
function walletPageRenderer(ctx: WebContext) {
  const { wallet } = ctx.services.wallet;
  return async function walletPage(session: SessionRow, flash: Flash = {}, form: { amount?: string; email?: string } = {}) {
    const [{ balance, sandbox }, entries, transactions] = await Promise.all([
      wallet.balanceParts(session.companyId),
      wallet.listEntries(session.companyId, 1, 50),
      wallet.listTransactions(session.companyId, 1, 20),
    ]);
    const body = html`<div class="grid">
<section class="card" aria-labelledby="balance-heading"><h2 id="balance-heading">Balance</h2><p class="figure">${naira(balance)}</p><p class="muted">The sum of the ledger below; top-ups are credited once the provider confirms the payment.</p>${
      sandbox === '0.00'
        ? ''
        : html`<p class="sandbox-note">${badge(SANDBOX_BADGE)} ${naira(sandbox)} of it is sandbox test money: no real payment stands behind it.</p>`
    }</section>
<section class="card" aria-labelledby="topup-heading"><h2 id="topup-heading">Top up</h2>
<form method="post" action="/console/wallet/top-up">
  ${csrfField(session.csrfToken)}
  <label for="amount">Amount in naira <span class="hint">From ₦100 to ₦100,000,000, up to 2 decimal places</span></label>
  <input id="amount" name="amount" type="text" inputmode="decimal" required value="${form.amount ?? ''}">
  <label for="customer_email">Payer e-mail <span class="hint">The provider sends the receipt here</span></label>
  <input id="customer_email" name="customer_email" type="email" required value="${form.email ?? session.email}">
  <button type="submit">Top up</button>
</form>
<p class="muted">You will be taken to the payment provider's checkout, then back here.</p></section>
</div>
<h2>Ledger</h2>
${
  entries.length === 0
    ? html`<p>No ledger entries yet.</p>`
    : html`<div class="table-wrap"><table><caption>Latest 50 ledger entries, newest first</caption>
<thead><tr><th scope="col">Date</th><th scope="col">Kind</th><th scope="col">Reference</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody>${entries.map((e) => html`<tr><td>${when(e.created_at)}</td><td>${e.kind.replace(/_/g, ' ')}</td><td>${ledgerReference(e)}${e.sandbox ? html` ${badge(SANDBOX_BADGE)}` : ''}</td><td class="num">${naira(e.amount_decimal)}</td></tr>`)}</tbody></table></div>`
}
<h2>Top-ups</h2>
${
  transactions.length === 0
    ? html`<p>No top-ups yet.</p>`
    : html`<div class="table-wrap"><table><caption>Latest 20 top-ups, newest first</caption>
<thead><tr><th scope="col">Started</th><th scope="col">Reference</th><th scope="col">Payer</th><th scope="col" class="num">Amount</th><th scope="col">Status</th></tr></thead>
<tbody>${transactions.map(
        (t) =>
          html`<tr><td>${when(t.created_at)}</td><td>${t.transaction_reference}${t.sandbox ? html` ${badge(SANDBOX_BADGE)}` : ''}</td><td>${t.customer_email ?? '—'}</td><td class="num">${naira(t.amount_decimal)}</td><td>${badge(TX_BADGE[t.status] ?? ['off', t.status])}</td></tr>`,
      )}</tbody></table></div>`
}`;
    // While a top-up is pending (the provider has not confirmed it yet), the page reloads itself
    // every few seconds so the balance appears without the administrator refreshing by hand.
    const pending = transactions.some((t) => t.status === 'pending');
    return page({
      title: 'Wallet',
      session,
      section: 'wallet',
      body: pending
        ? html`<p class="muted" role="status">A top-up is pending: this page refreshes every ${WALLET_REFRESH_SECONDS} seconds until the provider confirms it.</p>${body}`
        : body,
      flash,
      refreshSeconds: pending ? WALLET_REFRESH_SECONDS : undefined,
    });
  };
}

export async function walletRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { wallet } = ctx.services.wallet;
  const walletPage = walletPageRenderer(ctx);

  app.get(
    '/wallet',
    {
      schema: {
        hide: true,
        querystring: Type.Object({
          reference: Type.Optional(Type.String({ maxLength: 100 })),
          // The Top up link of a payroll run that is short prefills the shortfall.
          amount: Type.Optional(Type.String({ maxLength: 20, pattern: '^[0-9]+(\\.[0-9]{1,2})?$' })),
        }),
      },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      let flash: Flash = {};
      if (request.query.reference) {
        // Back from the checkout: say where that top-up stands (another company's reference is simply unknown).
        try {
          const status = await wallet.transactionStatus(session.companyId, request.query.reference);
          flash =
            status.transaction_status === 'success'
              ? { notice: `Top-up ${request.query.reference} is paid and credited.` }
              : status.transaction_status === 'failed'
                ? { error: `Top-up ${request.query.reference} failed or was cancelled; nothing was charged to the wallet.` }
                : {
                    notice: `Top-up ${request.query.reference} is being verified with the provider; the balance updates once it is confirmed.`,
                  };
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          flash = { error: 'That top-up reference was not found for this company.' };
        }
      }
      return sendHtml(reply, await walletPage(session, flash, { amount: request.query.amount }));
    },
  );

  app.post(
    '/wallet/top-up',
    {
      schema: {
        hide: true,
        body: Type.Object({
          _csrf: Type.Optional(Type.String({ maxLength: 200 })),
          amount: Type.Optional(Type.String({ maxLength: 40 })),
          customer_email: Type.Optional(Type.String({ maxLength: 320 })),
        }),
      },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const amount = (request.body.amount ?? '').replace(/[₦,\s]/g, '');
      const email = request.body.customer_email ?? '';
      try {
        const result = await wallet.topUp(
          session.companyId,
          { amount, customer_email: email, redirect_url: `${ctx.deps.config.publicUrl}/console/wallet` },
          request.log,
        );
        return reply.redirect(result.checkoutUrl, 303);
      } catch (error) {
        if (!(error instanceof DomainError) || error.code === 'internal') throw error;
        const message =
          Object.values(error.fields ?? {})
            .flat()
            .join(' ') || error.message;
        return sendHtml(reply, await walletPage(session, { error: message }, { amount: request.body.amount, email }), 422);
      }
    },
  );
}
