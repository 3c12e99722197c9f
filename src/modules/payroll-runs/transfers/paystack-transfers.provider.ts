// Paystack Transfers as a TransferProvider (docs/payroll-runs.md, "Paystack"):
// - sendBatch: the recipients the batch still lacks (POST /transferrecipient/bulk, stored once per
//   account and reused), then ONE POST /transfer/bulk of at most 100 transfers, `source: balance`,
//   NGN, integer kobo, one reference per paystub attempt;
// - status: GET /transfer/verify/:reference per reference (404 "not found" → unknown).
// Whatever gives no clear answer (timeout, network, 5xx, 401/429, malformed or unexpected body) is
// a ProviderError: the job retries later, and nothing is settled or refused on it. A 429 is a
// ProviderRateLimited (paystackRequest): the job comes back after its Retry-After.
import type { Db } from '../../../db/client.js';
import { toKobo } from '../../../tax-engine/money.js';
import { paystackBankCode } from '../../banks/index.js';
import { type PaystackOptions, type PaystackReply, ProviderError, ProviderRateLimited, paystackRequest } from '../../wallet/index.js';
import { type Account, accountKey, paystackRecipientsRepo } from './paystack-recipients.repo.js';
import { PartialStatus, type SendResult, type TransferProvider, type TransferRequest, type TransferState } from './transfer.provider.js';

export const OTP_REQUIRED = 'Transfers need an OTP: disable transfer OTP for this Paystack account.';
export const REVERSED = 'Paystack reversed the transfer after it had succeeded: the money came back to the balance.';
export const NO_RECIPIENT = 'Paystack could not create a transfer recipient for this account.';

/** First look at a batch a minute after sending (the webhook usually settles it before). */
export const PAYSTACK_SETTLE_AFTER_SECONDS = 60;
/** Looks back off up to every 30 minutes (transfers can stay processing at the bank for hours). */
export const PAYSTACK_MAX_POLL_SECONDS = 1800;
/** Verify requests in flight at once (100 per batch). */
const VERIFY_CONCURRENCY = 5;

type Kind = 'pending' | 'success' | 'failed' | 'reversed' | 'otp';

/** Paystack's transfer statuses → ours. Anything else is not understood: asked again later. */
export const TRANSFER_STATUS: Record<string, Kind> = {
  success: 'success',
  failed: 'failed',
  abandoned: 'failed',
  blocked: 'failed',
  rejected: 'failed',
  reversed: 'reversed',
  pending: 'pending',
  processing: 'pending',
  received: 'pending',
  queued: 'pending',
  ongoing: 'pending',
  otp: 'otp',
};

/**
 * Paystack takes transfer references of lowercase letters, digits, `-` and `_`, 16 to 50 long; ours
 * are `PT-<8 HEX>-<id>` (upper case, 13+ long). The wire form is `salary-` + ours in lower case, and
 * back: strip the prefix, upper case. Anything else is not one of our salary transfers.
 */
export const toPaystackReference = (reference: string) => `salary-${reference.toLowerCase()}`;
export function fromPaystackReference(wire: unknown): string | undefined {
  return typeof wire === 'string' && /^salary-[a-z0-9-]{1,43}$/.test(wire) ? wire.slice('salary-'.length).toUpperCase() : undefined;
}

export const NOTHING_TO_SEND = 'Nothing to transfer: the net pay is zero.';
const positive = (amount: string) => (toKobo(amount) ?? 0n) > 0n;

/** "125000.50" → 12500050 kobo, exactly (no float on the way); throws on anything else. */
export function koboOf(amount: string): number {
  const kobo = toKobo(amount);
  if (kobo === null || kobo <= 0n || kobo > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`not a transferable amount: ${amount}`);
  return Number(kobo);
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const message = (reply: PaystackReply) => String(reply.body.message ?? 'no message');

/** A 4xx that is not a decision about the request itself (key, permissions, rate limit): ask again later. */
function requireDecision(reply: PaystackReply, what: string): void {
  if ([401, 403, 408, 409, 429].includes(reply.httpStatus)) {
    throw new ProviderError(`Paystack ${what}: HTTP ${reply.httpStatus} (${message(reply)})`);
  }
}

/** A transfer's state as Paystack reports it (verify, or an item of the bulk answer). */
export function stateOf(reference: string, status: unknown): TransferState {
  const kind = TRANSFER_STATUS[String(status)];
  if (!kind) throw new ProviderError(`Paystack reported an unknown transfer status "${String(status)}"`);
  if (kind === 'otp') return { reference, status: 'failed', reason: OTP_REQUIRED };
  if (kind === 'reversed') return { reference, status: 'failed', reason: REVERSED, reversed: true };
  if (kind === 'failed')
    return { reference, status: 'failed', reason: `Paystack could not pay this account (transfer ${String(status)}).` };
  return { reference, status: kind };
}

export function createPaystackTransferProvider(deps: { db: Db } & PaystackOptions): TransferProvider {
  const { db } = deps;
  // Until when Paystack's last 429 asked us to wait (its Retry-After): this process sends no transfer
  // request before then, and says so (limitedFor) before a send job writes its rows
  // (docs/payroll-runs.md, "Paystack's rate limit"). Per process: another instance learns from its own 429.
  let limitedUntil = 0;
  const limitedFor = (): number | undefined => {
    const left = limitedUntil - Date.now();
    return left > 0 ? Math.max(1, Math.ceil(left / 1000)) : undefined;
  };
  const call = async (method: 'GET' | 'POST', path: string, payload?: unknown) => {
    const wait = limitedFor();
    if (wait !== undefined) throw new ProviderRateLimited(`Paystack rate limit: not asked, ${wait} s left of its Retry-After`, wait);
    try {
      return await paystackRequest(deps, method, path, payload);
    } catch (error) {
      if (error instanceof ProviderRateLimited) limitedUntil = Math.max(limitedUntil, Date.now() + error.retryAfterSeconds * 1000);
      throw error;
    }
  };

  /** Recipient codes for every account of the batch: the stored ones, the missing ones created in one request. */
  async function recipients(transfers: readonly TransferRequest[]): Promise<Map<string, string>> {
    const codes = await paystackRecipientsRepo.find(db, transfers);
    const missing = new Map<string, TransferRequest>();
    for (const t of transfers) if (!codes.has(accountKey(t))) missing.set(accountKey(t), t);
    if (missing.size === 0) return codes;
    const batch = [...missing.values()];
    const reply = await call('POST', '/transferrecipient/bulk', {
      batch: batch.map((t) => ({
        type: 'nuban',
        name: t.accountName.slice(0, 100) || 'Employee',
        account_number: t.accountNumber,
        bank_code: paystackBankCode(t.bankCode),
        currency: 'NGN',
      })),
    });
    requireDecision(reply, 'refused to create recipients');
    const data = record(reply.body.data);
    if (reply.httpStatus >= 400 || reply.body.status !== true) return codes; // refused: these accounts fail below
    if (!data || !Array.isArray(data.success)) throw new ProviderError('Paystack answered the recipients request with an unexpected body');
    // Paystack answers with its own bank code; match by account number and that code.
    const byWire = new Map(batch.map((t) => [`${paystackBankCode(t.bankCode)}:${t.accountNumber}`, t as Account]));
    const created = data.success.flatMap((item) => {
      const row = record(item);
      const details = record(row?.details);
      const account = byWire.get(`${String(details?.bank_code)}:${String(details?.account_number)}`);
      const code = row?.recipient_code;
      return account && typeof code === 'string' && /^RCP_\w+$/.test(code) ? [{ ...account, recipientCode: code }] : [];
    });
    await paystackRecipientsRepo.save(db, created);
    return paystackRecipientsRepo.find(db, transfers);
  }

  return {
    name: 'paystack',
    settleAfterSeconds: PAYSTACK_SETTLE_AFTER_SECONDS,
    maxPollSeconds: PAYSTACK_MAX_POLL_SECONDS,
    limitedFor,

    async sendBatch(transfers): Promise<SendResult[]> {
      if (transfers.length === 0) return [];
      if (transfers.length > 100) throw new Error('Paystack takes at most 100 transfers per bulk request');
      const codes = await recipients(transfers.filter((t) => positive(t.amount)));
      const refused: SendResult[] = transfers.flatMap((t): SendResult[] =>
        !positive(t.amount)
          ? [{ reference: t.reference, accepted: false, reason: NOTHING_TO_SEND }]
          : !codes.has(accountKey(t))
            ? [{ reference: t.reference, accepted: false, reason: NO_RECIPIENT }]
            : [],
      );
      const sendable = transfers.filter((t) => positive(t.amount) && codes.has(accountKey(t)));
      if (sendable.length === 0) return refused;

      const reply = await call('POST', '/transfer/bulk', {
        currency: 'NGN',
        source: 'balance',
        transfers: sendable.map((t) => ({
          amount: koboOf(t.amount),
          reference: toPaystackReference(t.reference),
          reason: t.reason,
          recipient: codes.get(accountKey(t)),
        })),
      });
      requireDecision(reply, 'refused the bulk transfer');
      if (reply.httpStatus >= 400 || reply.body.status !== true) {
        const text = message(reply);
        // A reference Paystack already has: it may be ours from before a crash; ask, never refuse.
        if (/duplicate|already/i.test(text)) throw new ProviderError(`Paystack: ${text}`);
        const reason = /\botp\b/i.test(text) ? OTP_REQUIRED : `Paystack refused the transfers: ${text}`.slice(0, 300);
        return [...refused, ...sendable.map((t) => ({ reference: t.reference, accepted: false as const, reason }))];
      }
      if (!Array.isArray(reply.body.data)) throw new ProviderError('Paystack answered the bulk transfer with an unexpected body');
      const items = new Map(reply.body.data.map((item) => [String(record(item)?.reference), record(item)]));
      return [
        ...refused,
        ...sendable.map((t): SendResult => {
          const item = items.get(toPaystackReference(t.reference));
          // Not in the answer: accepted as a whole; verify will tell (unknown is never settled).
          if (!item || item.status === undefined) return { reference: t.reference, accepted: true };
          const state = stateOf(t.reference, item.status);
          return state.status === 'failed'
            ? { reference: t.reference, accepted: false, reason: state.reason }
            : { reference: t.reference, accepted: true };
        }),
      ];
    },

    async status(references): Promise<TransferState[]> {
      const states: TransferState[] = new Array(references.length);
      let next = 0;
      let stopped = false;
      const worker = async () => {
        while (next < references.length && !stopped) {
          const i = next++;
          states[i] = await verify(references[i]).catch((error: unknown) => {
            // One refusal (a rate limit, an outage) answers for the whole call: the other workers
            // stop asking instead of spending the limit on answers that will be thrown away.
            stopped = true;
            throw error;
          });
        }
      };
      try {
        await Promise.all(Array.from({ length: Math.min(VERIFY_CONCURRENCY, references.length) }, worker));
      } catch (error) {
        // Under the rate limit a batch of 100 verifies may never fit in one window: hand back what
        // was learnt, so that the caller settles it and the next look asks only about the rest.
        if (error instanceof ProviderRateLimited) throw new PartialStatus(error, states.filter(Boolean));
        throw error;
      }
      return states;
    },
  };

  async function verify(reference: string): Promise<TransferState> {
    const wire = toPaystackReference(reference);
    const reply = await call('GET', `/transfer/verify/${encodeURIComponent(wire)}`);
    if ((reply.httpStatus === 404 || reply.httpStatus === 400) && reply.body.status === false && /not found/i.test(message(reply))) {
      return { reference, status: 'unknown' };
    }
    const data = record(reply.body.data);
    if (reply.httpStatus !== 200 || reply.body.status !== true || !data) {
      throw new ProviderError(`Paystack transfer verify failed (HTTP ${reply.httpStatus}: ${message(reply)})`);
    }
    if (data.reference !== undefined && data.reference !== wire)
      throw new ProviderError('Paystack verified a different transfer reference');
    return stateOf(reference, data.status);
  }
}
