// Paystack Transfers on the fake Paystack server (test/helpers/wallet.ts): transfer recipients
// (single and bulk), POST /transfer/bulk, GET /transfer/verify/:reference, with switches for the
// failure cases, and helpers to fund a wallet through Paystack and to send signed transfer webhooks.
import type { App } from '../../src/app.js';
import type { Executor } from '../../src/db/client.js';
import type { TestCompany } from './factories.js';
import { startTopUp } from './payroll-runs.js';
import { type FakePaystack, type FakeVerify, makeVerifyJobsDue, paystackSignature, paystackVerified } from './wallet.js';

export interface FakeTransfer {
  reference: string;
  amount: number;
  recipient: string;
  account: string;
  reason: string;
  /** Paystack's status; `received` until first verified, then `outcome(account)`. */
  status: string;
  /** How many bulk requests carried this reference (exactly-once: 1). */
  received: number;
}

export interface FakeTransfers {
  /** bank_code:account_number → recipient code. */
  recipients: Map<string, string>;
  /** Recipients created (not found) per request, in order. */
  recipientRequests: number[];
  /** By Paystack (wire) reference. */
  transfers: Map<string, FakeTransfer>;
  /** Every POST /transfer/bulk body's transfers. */
  bulks: { amount: number; reference: string; reason: string; recipient: string }[][];
  /** The status a received transfer settles to when first verified (default: 999… fails, the rest succeed). */
  outcome: (account: string) => string;
  /** Overrides POST /transfer/bulk's answer (OTP refusal, 500, a hang...); the transfers are not recorded. */
  bulkAnswer: FakeVerify | undefined;
  /** Overrides GET /transfer/verify for every reference (5xx, hang, malformed...). */
  verifyAnswer: FakeVerify | undefined;
  /** Called after a bulk request was recorded, before answering (the crash test kills the server here). */
  onBulk: (() => void) | undefined;
  /** Accounts whose recipient Paystack refuses to create. */
  badAccounts: Set<string>;
  /**
   * Paystack's rate limit: at most this many transfer requests (recipients, bulk, verify) per
   * second; the next are refused unprocessed with 429 and `Retry-After: 1`. Unset: no limit.
   */
  rateLimit: number | undefined;
  /** Requests refused by the rate limit so far. */
  limited: number;
}

const json = (body: unknown, httpStatus = 200): FakeVerify => ({ kind: 'json', httpStatus, body });

export function fakeTransfers(fake: FakePaystack): FakeTransfers {
  const state: FakeTransfers = {
    recipients: new Map(),
    recipientRequests: [],
    transfers: new Map(),
    bulks: [],
    outcome: (account) => (account.startsWith('999') ? 'failed' : 'success'),
    bulkAnswer: undefined,
    verifyAnswer: undefined,
    onBulk: undefined,
    badAccounts: new Set(),
    rateLimit: undefined,
    limited: 0,
  };
  let window = { second: 0, requests: 0 };
  const overLimit = () => {
    if (state.rateLimit === undefined) return false;
    const second = Math.floor(Date.now() / 1000);
    if (window.second !== second) window = { second, requests: 0 };
    window.requests++;
    if (window.requests <= state.rateLimit) return false;
    state.limited++;
    return true;
  };
  const tooMany: FakeVerify = {
    kind: 'json',
    httpStatus: 429,
    headers: { 'retry-after': '1' },
    body: { status: false, message: 'Too many requests. Retry after 1 second.' },
  };
  const recipientFor = (input: { account_number: string; bank_code: string }) => {
    const key = `${input.bank_code}:${input.account_number}`;
    let code = state.recipients.get(key);
    if (!code) {
      code = `RCP_${(state.recipients.size + 1).toString(36).padStart(6, '0')}`;
      state.recipients.set(key, code);
    }
    return {
      recipient_code: code,
      type: 'nuban',
      currency: 'NGN',
      details: { account_number: input.account_number, bank_code: input.bank_code },
    };
  };
  fake.routes.push((method, url, body) => {
    const transferRoute = url === '/transferrecipient/bulk' || url === '/transfer/bulk' || url.startsWith('/transfer/verify/');
    if (transferRoute && overLimit()) return tooMany;
    if (method === 'POST' && url === '/transferrecipient/bulk') {
      const batch = (JSON.parse(body) as { batch: { account_number: string; bank_code: string; type: string; currency: string }[] }).batch;
      const before = state.recipients.size;
      const ok = batch.filter((r) => r.type === 'nuban' && r.currency === 'NGN' && !state.badAccounts.has(r.account_number));
      const success = ok.map(recipientFor);
      state.recipientRequests.push(state.recipients.size - before);
      const errors = batch.filter((r) => !ok.includes(r)).map((r) => ({ account_number: r.account_number, message: 'Account not found' }));
      return json({ status: true, message: 'Recipients added successfully', data: { success, errors } });
    }
    if (method === 'POST' && url === '/transfer/bulk') {
      if (state.bulkAnswer) return state.bulkAnswer;
      const input = JSON.parse(body) as { source: string; currency: string; transfers: FakeTransfers['bulks'][number] };
      if (input.source !== 'balance' || input.currency !== 'NGN' || input.transfers.length > 100) {
        return json({ status: false, message: 'Invalid bulk request' }, 400);
      }
      state.bulks.push(input.transfers);
      const accounts = new Map([...state.recipients].map(([key, code]) => [code, key.split(':')[1]]));
      for (const t of input.transfers) {
        const known = state.transfers.get(t.reference);
        if (known) known.received++;
        else state.transfers.set(t.reference, { ...t, account: accounts.get(t.recipient) ?? '', status: 'received', received: 1 });
      }
      state.onBulk?.();
      return json({
        status: true,
        message: `${input.transfers.length} transfers queued.`,
        data: input.transfers.map((t, i) => ({
          reference: t.reference,
          recipient: t.recipient,
          amount: t.amount,
          transfer_code: `TRF_${i}`,
          currency: 'NGN',
          status: 'received',
        })),
      });
    }
    const verify = /^\/transfer\/verify\/(.+)$/.exec(url);
    if (method === 'GET' && verify) {
      if (state.verifyAnswer) return state.verifyAnswer;
      const t = state.transfers.get(decodeURIComponent(verify[1]));
      if (!t) return json({ status: false, message: 'Transfer not found' }, 404);
      if (t.status === 'received') t.status = state.outcome(t.account);
      return json({
        status: true,
        message: 'Transfer retrieved',
        data: { reference: t.reference, amount: t.amount, status: t.status, currency: 'NGN' },
      });
    }
    return undefined;
  });
  return state;
}

/** A signed transfer.* webhook for one of the fake's transfers (or any payload given). */
export function transferWebhook(app: App, fake: FakePaystack, event: string, data: Record<string, unknown>, signature?: string) {
  const text = JSON.stringify({ event, data });
  return app.inject({
    method: 'POST',
    url: '/webhooks/paystack',
    headers: { 'content-type': 'application/json', 'x-paystack-signature': signature ?? paystackSignature(fake.secret, text) },
    payload: text,
  });
}

/** Tops the company's wallet up through Paystack: W1 on the fake, verified success, the verification job. */
export async function fundWalletPaystack(app: App, db: Executor, company: TestCompany, amount: number, fake: FakePaystack): Promise<void> {
  const reference = (await startTopUp(app, db, company, amount)).pathname.slice(1);
  fake.verify.set(reference, paystackVerified(reference, 'success', Math.round(amount * 100)));
  await makeVerifyJobsDue(db);
  await app.deps.jobs.runDue(100);
}
