// The one small interface every payment provider implements. The wallet service never knows which
// provider it talks to beyond its name (stored on each transaction).

export interface InitializeInput {
  reference: string;
  amountKobo: bigint;
  currency: 'NGN';
  email: string;
  /** Where the provider sends the payer afterwards (the company's redirect_url). */
  callbackUrl: string;
}

export type VerifiedStatus = 'success' | 'failed' | 'pending';

export interface VerifyResult {
  status: VerifiedStatus;
  /** What the provider says was paid, in kobo (null when it does not say, e.g. still pending). */
  amountKobo: bigint | null;
  currency: string | null;
  /** The provider's own answer, kept on the transaction for reconciliation. */
  raw?: unknown;
}

export interface PaymentProvider {
  readonly name: 'sandbox' | 'paystack';
  initialize(input: InitializeInput): Promise<{ checkoutUrl: string }>;
  verify(reference: string): Promise<VerifyResult>;
}

/** The provider could not give a usable answer (network, timeout, 5xx, malformed reply): retry later. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/**
 * The provider refused the request before processing it (HTTP 429, its rate limit): nothing it
 * carried was received, and the provider said when to come back (`Retry-After`, seconds).
 */
export class ProviderRateLimited extends ProviderError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = 'ProviderRateLimited';
  }
}

/** `Retry-After` as seconds (a number of seconds or an HTTP date), at least 1 and at most 600; 5 when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number {
  const clamp = (seconds: number) => Math.min(600, Math.max(1, Math.ceil(seconds)));
  if (header === null || header.trim() === '') return 5;
  if (/^\s*\d+(\.\d+)?\s*$/.test(header)) return clamp(Number(header));
  const at = Date.parse(header);
  return Number.isNaN(at) ? 5 : clamp((at - now) / 1000);
}
