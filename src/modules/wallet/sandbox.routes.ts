// The sandbox provider's checkout page (docs/wallet.md, "The wallet rules"): GET shows Pay and
// Cancel; each POSTs `outcome=success|failed` to the same URL, which records the choice and
// 303-redirects to the company's redirect_url with `?reference=`. Both need the link's `secret`
// (providers/sandbox.provider.ts): a reference alone opens nothing, and a wrong secret looks exactly like an
// unknown reference.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '../../db/client.js';
import { typed } from '../../platform/deps.js';
import { isRecord } from '../../platform/guards.js';
import { naira } from '../../tax-engine/money.js';
import { validCheckoutSecret } from './providers/sandbox.provider.js';
import { walletRepo } from './wallet.repo.js';
import { REFERENCE_SHAPE } from './wallet.service.js';
import type { Verification } from './wallet.verification.service.js';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

function page(reply: FastifyReply, status: number, title: string, body: string) {
  return reply
    .status(status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      // No form-action: the POST ends in a redirect to the merchant's own site.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
    })
    .send(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
.note{background:#fff4d6;border:1px solid #e0c060;padding:.5rem .75rem;border-radius:4px}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}dt{font-weight:600}
button{font-size:1rem;padding:.6rem 1.2rem;margin-right:.75rem;border-radius:4px;border:1px solid #555;cursor:pointer}
button[value=success]{background:#0b6b2e;color:#fff;border-color:#0b6b2e}
button:focus-visible,a:focus-visible{outline:3px solid #1f5fbf;outline-offset:2px}</style></head>
<body><main>${body}</main></body></html>`);
}

const Params = Type.Object({ reference: Type.String() });
const Query = Type.Object({ secret: Type.Optional(Type.String()) });
const NOT_FOUND = '<h1>Payment not found</h1><p>This checkout link is not valid.</p>';

export async function sandboxRoutes(root: FastifyInstance, db: Db, verification: Verification): Promise<void> {
  const app = typed(root);
  // Junk in the path (control characters, huge strings) is simply not a payment.
  const find = async (reference: string, secret: string | undefined) => {
    const row = REFERENCE_SHAPE.test(reference) ? await walletRepo.findForVerification(db, reference) : undefined;
    return row && row.provider === 'sandbox' && validCheckoutSecret(row.checkoutSecretHash, secret) ? row : undefined;
  };

  app.get('/sandbox/checkout/:reference', { schema: { hide: true, params: Params, querystring: Query } }, async (request, reply) => {
    const row = await find(request.params.reference, request.query.secret);
    if (!row) return page(reply, 404, 'Payment not found', NOT_FOUND);
    const outcome = await walletRepo.sandboxOutcome(db, row.reference);
    const summary = `<dl><dt>Amount</dt><dd>${naira(row.amount)}</dd><dt>Reference</dt><dd>${escapeHtml(row.reference)}</dd><dt>E-mail</dt><dd>${escapeHtml(row.customerEmail)}</dd></dl>`;
    if (outcome || row.status !== 'pending') {
      const state = outcome === 'success' || row.status === 'success' ? 'paid' : 'cancelled or failed';
      return page(
        reply,
        200,
        'Payment closed',
        `<h1>This payment is already ${state}</h1>${summary}<p><a href="${escapeHtml(returnUrl(row.redirectUrl, row.reference))}">Return to the merchant</a></p>`,
      );
    }
    return page(
      reply,
      200,
      `Pay ${naira(row.amount)} — sandbox checkout`,
      `<h1>Sandbox checkout</h1><p class="note" role="note">Test payment provider: no real money moves.</p>${summary}
<form method="post" aria-label="Complete or cancel the payment">
<button type="submit" name="outcome" value="success">Pay ${naira(row.amount)}</button>
<button type="submit" name="outcome" value="failed">Cancel</button>
</form>`,
    );
  });

  // The form has no action: it posts to this same URL, secret included.
  const postOptions = { schema: { hide: true, params: Params, querystring: Query }, bodyLimit: 4096 };
  app.post('/sandbox/checkout/:reference', postOptions, async (request, reply) => {
    const outcome = isRecord(request.body) ? request.body.outcome : undefined;
    if (outcome !== 'success' && outcome !== 'failed') {
      return page(reply, 400, 'Invalid choice', '<h1>Invalid choice</h1><p>Choose Pay or Cancel on the checkout page.</p>');
    }
    const row = await find(request.params.reference, request.query.secret);
    if (!row) return page(reply, 404, 'Payment not found', NOT_FOUND);
    // First choice wins; a double click or a later click on a closed payment only redirects.
    if (row.status === 'pending') {
      await walletRepo.recordSandboxOutcome(db, row.reference, outcome);
      // The sandbox is its own provider: its answer is known now, so the top-up is settled (credited
      // or failed) before the payer is sent back, instead of after WALLET_VERIFY_DELAY_SECONDS. The
      // same verification as the job (amount and currency checked, credited once); the queued job
      // then finds it settled. Paystack keeps its delay (docs/wallet.md).
      await verification.verifyOnce(row.reference, request.log);
    }
    return reply.status(303).header('cache-control', 'no-store').redirect(returnUrl(row.redirectUrl, row.reference), 303);
  });
}

function returnUrl(redirectUrl: string, reference: string): string {
  const url = new URL(redirectUrl);
  url.searchParams.set('reference', reference);
  return url.toString();
}
