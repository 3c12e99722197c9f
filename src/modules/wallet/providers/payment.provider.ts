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
