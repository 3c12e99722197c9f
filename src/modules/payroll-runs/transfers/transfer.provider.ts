// The interface every salary transfer provider implements (the built-in sandbox in
// sandbox-transfers.provider.ts; Paystack Transfers in paystack-transfers.provider.ts).
//
// Contract (docs/payroll-runs.md, "exactly once"):
// - `sendBatch` hands up to BATCH_SIZE transfers to the provider and answers per transfer whether
//   it was accepted (it will settle later) or refused now (it never will). The provider must treat
//   a reference it already has as the same transfer, never as a new one (Paystack refuses a
//   duplicate reference; the sandbox keeps its first record).
// - `status` answers per reference: `unknown` (the provider never received it: safe to send),
//   `pending`, `success`, or `failed` with a reason (`reversed` when the money came back after
//   the transfer had succeeded). The transfer job asks before sending again anything it may
//   already have sent.
import { ProviderRateLimited } from '../../wallet/index.js';

/** At most this many transfers per request (Paystack's bulk limit) and per transfer job. */
export const BATCH_SIZE = 100;

export interface TransferRequest {
  reference: string;
  /** Naira, exact decimal text ("125000.50"). */
  amount: string;
  bankName: string;
  /** The bank's CBN/NIBSS code (funding only funds accounts with a known code and a valid NUBAN). */
  bankCode: string;
  accountNumber: string;
  /** The account holder's name (resolved, else the employee's): what a Paystack recipient is named. */
  accountName: string;
  /** Shown on the employee's statement: company and period. */
  reason: string;
}

export type SendResult = { reference: string; accepted: true } | { reference: string; accepted: false; reason: string };

export type TransferState =
  | { reference: string; status: 'unknown' | 'pending' | 'success' }
  | { reference: string; status: 'failed'; reason: string; reversed?: boolean };

export interface TransferProvider {
  readonly name: string;
  /** When to first ask about a batch after sending it (the sandbox: its settlement delay). */
  readonly settleAfterSeconds: number;
  /** The longest wait between two looks at an unsettled batch (the looks back off up to it). */
  readonly maxPollSeconds: number;
  /**
   * Seconds left of a rate limit the provider announced (a 429's Retry-After), or undefined when
   * free to ask: a send job asks before it marks its transfers `sending`, so that a refusal known in
   * advance writes no row (docs/payroll-runs.md, "Paystack's rate limit"). Providers without a limit omit it.
   */
  limitedFor?(): number | undefined;
  sendBatch(transfers: readonly TransferRequest[]): Promise<SendResult[]>;
  status(references: readonly string[]): Promise<TransferState[]>;
}

/**
 * Seconds until the next look at a batch still unsettled `elapsedSeconds` after it was sent: half
 * the time waited so far (each look ×1.5 later than the last), at least min(60, settleAfterSeconds)
 * (1 s at least), at most maxPollSeconds. The sandbox's bounds are equal: it looks at a fixed pace.
 */
export function pollDelay(provider: Pick<TransferProvider, 'settleAfterSeconds' | 'maxPollSeconds'>, elapsedSeconds: number): number {
  const least = Math.min(60, Math.max(1, provider.settleAfterSeconds));
  const most = Math.max(least, provider.maxPollSeconds);
  return Math.round(Math.min(most, Math.max(least, elapsedSeconds / 2)));
}

/** The widest spread added to a Retry-After, in seconds (the bound the Retry-After itself has). */
export const MAX_RATE_LIMIT_SPREAD_SECONDS = 600;

/**
 * Seconds until a transfer job refused by the provider's rate limit runs again: the Retry-After,
 * then a uniformly random point (`random`, in [0, 1)) of a spread of Retry-After × √`waiting`, at
 * most MAX_RATE_LIMIT_SPREAD_SECONDS, `waiting` being the open transfer jobs (this one included)
 * that compete for the same limit. Without the spread they all came back together, and all but
 * the limit's worth were refused again, window after window (docs/payroll-runs.md, "Paystack's rate
 * limit"). Why √waiting: the limit is not published, and it admits between one and `waiting` of
 * them per Retry-After (had it admitted more, none would have been refused); spreading them over
 * `waiting` windows would suit a limit of one and slow a higher one `waiting` times, over one window
 * would suit a limit of `waiting` and keep the herd for any lower one; √waiting windows is off by at
 * most √waiting either way. Alone (waiting 1) a job comes back within twice the Retry-After.
 */
export function rateLimitedDelay(retryAfterSeconds: number, waiting: number, random: number): number {
  const spread = Math.min(MAX_RATE_LIMIT_SPREAD_SECONDS, retryAfterSeconds * Math.sqrt(Math.max(1, waiting)));
  return retryAfterSeconds + Math.min(Math.max(random, 0), 1) * spread;
}

/**
 * A provider's rate limit met part-way through `status`: the states read before it, for the caller
 * to settle (the next look asks only about the rest), and when to come back.
 */
export class PartialStatus extends ProviderRateLimited {
  constructor(
    limited: ProviderRateLimited,
    readonly states: TransferState[],
  ) {
    super(limited.message, limited.retryAfterSeconds);
    this.name = 'PartialStatus';
  }
}
