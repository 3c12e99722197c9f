// Account-name resolution: who holds account N at bank C, asked of the payment provider
// (PAYMENT_PROVIDER). The sandbox answers without any network; Paystack answers GET /bank/resolve.
// Two kinds of failure, kept apart because the API answers them differently (docs/banks.md):
// - AccountNotResolved: the provider answered, and the account does not exist there (422);
// - ResolverUnavailable: no usable answer (timeout, network, 5xx, 401/429, malformed body) (502).
import type { Config } from '../../config.js';
import { paystackBankCode } from './banks.lookup.rules.js';

export interface ResolveInput {
  bankCode: string;
  accountNumber: string;
  /** The employee's names: what the sandbox "resolves" to. */
  holderName: string;
}

export interface AccountResolver {
  readonly name: 'sandbox' | 'paystack';
  /** The account holder's name as the bank has it. */
  resolve(input: ResolveInput): Promise<string>;
}

export class AccountNotResolved extends Error {
  constructor(message = 'Account could not be resolved.') {
    super(message);
    this.name = 'AccountNotResolved';
  }
}

export class ResolverUnavailable extends Error {
  constructor(
    message: string,
    readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'ResolverUnavailable';
  }
}

/** Sandbox: the employee's own name in capitals, unless the account starts with 999 (never resolves). */
export function createSandboxResolver(): AccountResolver {
  return {
    name: 'sandbox',
    async resolve(input) {
      if (input.accountNumber.startsWith('999')) throw new AccountNotResolved();
      return input.holderName.toUpperCase();
    },
  };
}

export const PAYSTACK_RESOLVE_TIMEOUT_MS = 10_000;

export function createPaystackResolver(options: { secretKey: string; baseUrl: string; timeoutMs?: number }): AccountResolver {
  const timeoutMs = options.timeoutMs ?? PAYSTACK_RESOLVE_TIMEOUT_MS;
  return {
    name: 'paystack',
    async resolve(input) {
      const query = new URLSearchParams({ account_number: input.accountNumber, bank_code: paystackBankCode(input.bankCode) });
      let status: number;
      let text: string;
      try {
        const response = await fetch(`${options.baseUrl}/bank/resolve?${query}`, {
          headers: { authorization: `Bearer ${options.secretKey}`, accept: 'application/json' },
          signal: AbortSignal.timeout(timeoutMs),
        });
        status = response.status;
        text = await response.text();
      } catch (error) {
        const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
        throw new ResolverUnavailable(timedOut ? `Paystack did not answer within ${timeoutMs} ms` : 'Paystack could not be reached', error);
      }
      let body: { status?: unknown; message?: unknown; data?: { account_name?: unknown } | null } | null;
      try {
        body = JSON.parse(text);
      } catch (error) {
        throw new ResolverUnavailable(`Paystack answered HTTP ${status} with malformed JSON`, error);
      }
      if (!body || typeof body !== 'object') throw new ResolverUnavailable(`Paystack answered HTTP ${status} with an unexpected body`);
      // Paystack answers an account it cannot find with 422 (older answers: 400) and status false.
      if ((status === 422 || status === 400) && body.status === false) throw new AccountNotResolved();
      const name = body.data && typeof body.data === 'object' ? body.data.account_name : undefined;
      if (status !== 200 || body.status !== true || typeof name !== 'string' || name.trim() === '') {
        throw new ResolverUnavailable(
          `Paystack could not resolve the account (HTTP ${status}: ${String(body.message ?? 'no usable answer')})`,
        );
      }
      return name.trim();
    },
  };
}

/** The resolver of the configured provider (PAYMENT_PROVIDER). */
export function createAccountResolver(config: Config, overrides: { timeoutMs?: number } = {}): AccountResolver {
  if (config.paymentProvider !== 'paystack') return createSandboxResolver();
  if (!config.paystackSecretKey) throw new Error('PAYMENT_PROVIDER=paystack needs PAYSTACK_SECRET_KEY');
  return createPaystackResolver({ secretKey: config.paystackSecretKey, baseUrl: config.paystackBaseUrl, timeoutMs: overrides.timeoutMs });
}

/**
 * Whether the resolved name is the employee's: the same words whatever their case, order, accents
 * and punctuation. Punctuation inside a name may split it or not ("O'Brien-Smith" matches both
 * "OBRIEN SMITH" and "O BRIEN SMITH"). A middle name the employee record lacks is a mismatch: the
 * answer is a hint for a person to look at, not a rule the API enforces (docs/banks.md).
 */
export function namesMatch(resolved: string, firstName: string, lastName: string): boolean {
  const readings = (text: string) => {
    const plain = text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    const key = (spelled: string) => spelled.split(/\s+/).filter(Boolean).sort().join(' ');
    const split = (spelled: string) => spelled.replace(/[^\p{L}\p{N}\s]/gu, ' ');
    // Every punctuation mark splits; none does; apostrophes join and the rest split ("OBRIEN SMITH").
    return [key(split(plain)), key(plain.replace(/[^\p{L}\p{N}\s]/gu, '')), key(split(plain.replace(/['’`]/g, '')))];
  };
  const theirs = readings(resolved);
  const ours = readings(`${firstName} ${lastName}`);
  return theirs[0] !== '' && theirs.some((reading) => ours.includes(reading));
}
