// Paystack adapter: initialize → authorization_url; verify by reference. Amounts travel in kobo.
// Every failure to get a clear answer (timeout, network, 5xx, malformed JSON, unexpected shape)
// is a ProviderError, which the caller retries; it is never read as "paid" or "failed".
import crypto from 'node:crypto';
import {
  type InitializeInput,
  type PaymentProvider,
  ProviderError,
  ProviderRateLimited,
  retryAfterSeconds,
  type VerifiedStatus,
  type VerifyResult,
} from './payment.provider.js';

export interface PaystackOptions {
  secretKey: string;
  baseUrl: string;
  /** Client timeout per request (ms). */
  timeoutMs?: number;
}

export const PAYSTACK_TIMEOUT_MS = 10_000;

// Paystack's transaction statuses. `abandoned` is what an unpaid checkout reports until the payer
// finishes, so it is still pending for us; the 24 h limit turns it into failed eventually.
const STATUS_MAP: Record<string, VerifiedStatus> = {
  success: 'success',
  failed: 'failed',
  reversed: 'failed',
  abandoned: 'pending',
  ongoing: 'pending',
  pending: 'pending',
  processing: 'pending',
  queued: 'pending',
};

export interface PaystackReply {
  httpStatus: number;
  body: { status?: unknown; message?: unknown; data?: unknown };
}

/**
 * One request to Paystack's API with the secret key. Whatever gives no clear answer (timeout,
 * network, 5xx, malformed JSON, a body that is not an object) is a ProviderError; any other
 * answer (2xx or 4xx) is handed back for the caller to read. Shared with salary transfers.
 */
export async function paystackRequest(
  options: PaystackOptions,
  method: 'GET' | 'POST',
  path: string,
  payload?: unknown,
): Promise<PaystackReply> {
  const timeoutMs = options.timeoutMs ?? PAYSTACK_TIMEOUT_MS;
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${options.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${options.secretKey}`,
        accept: 'application/json',
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: payload === undefined ? undefined : JSON.stringify(payload),
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new ProviderError(timedOut ? `Paystack did not answer within ${timeoutMs} ms` : 'Paystack could not be reached', error);
  }
  if (response.status >= 500) throw new ProviderError(`Paystack answered HTTP ${response.status}`);
  // Paystack's rate limit: the request was refused unprocessed; come back when it says
  // (docs/payroll-runs.md, "Paystack's rate limit").
  if (response.status === 429) {
    const wait = retryAfterSeconds(response.headers.get('retry-after'));
    throw new ProviderRateLimited(`Paystack rate limit (HTTP 429): retry after ${wait} s`, wait);
  }
  let body: PaystackReply['body'];
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new ProviderError(`Paystack answered HTTP ${response.status} with malformed JSON`, error);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ProviderError('Paystack answered with an unexpected body');
  return { httpStatus: response.status, body };
}

export function createPaystackProvider(options: PaystackOptions): PaymentProvider {
  const call = (method: 'GET' | 'POST', path: string, payload?: unknown) => paystackRequest(options, method, path, payload);

  return {
    name: 'paystack',

    async initialize(input: InitializeInput) {
      const { httpStatus, body } = await call('POST', '/transaction/initialize', {
        amount: input.amountKobo.toString(),
        currency: input.currency,
        email: input.email,
        reference: input.reference,
        callback_url: input.callbackUrl,
      });
      const data = body.data as Record<string, unknown> | null | undefined;
      const url = data?.authorization_url;
      if (httpStatus !== 200 || body.status !== true || typeof url !== 'string' || !/^https?:\/\//.test(url)) {
        throw new ProviderError(`Paystack refused to initialize (HTTP ${httpStatus}: ${String(body.message ?? 'no message')})`);
      }
      return { checkoutUrl: url };
    },

    async verify(reference: string): Promise<VerifyResult> {
      const { httpStatus, body } = await call('GET', `/transaction/verify/${encodeURIComponent(reference)}`);
      // Paystack answers an unknown reference with 4xx and status false: nothing was paid (yet).
      if ((httpStatus === 400 || httpStatus === 404) && body.status === false && /not found/i.test(String(body.message ?? ''))) {
        return { status: 'pending', amountKobo: null, currency: null, raw: body };
      }
      if (httpStatus !== 200 || body.status !== true || !body.data || typeof body.data !== 'object') {
        throw new ProviderError(`Paystack verify failed (HTTP ${httpStatus}: ${String(body.message ?? 'no message')})`);
      }
      const data = body.data as Record<string, unknown>;
      const status = STATUS_MAP[String(data.status)];
      if (!status) throw new ProviderError(`Paystack reported an unknown status "${String(data.status)}"`);
      if (data.reference !== undefined && data.reference !== reference) throw new ProviderError('Paystack verified a different reference');
      const amount = data.amount;
      const amountKobo =
        typeof amount === 'number' && Number.isSafeInteger(amount)
          ? BigInt(amount)
          : typeof amount === 'string' && /^\d+$/.test(amount)
            ? BigInt(amount)
            : null;
      if (status === 'success' && amountKobo === null) throw new ProviderError('Paystack reported success without a usable amount');
      return { status, amountKobo, currency: typeof data.currency === 'string' ? data.currency : null, raw: data };
    },
  };
}

/** `x-paystack-signature`: hex HMAC-SHA512 of the raw body with the secret key; constant-time compare. */
export function validPaystackSignature(secretKey: string, rawBody: Buffer, signature: string | string[] | undefined): boolean {
  if (typeof signature !== 'string' || !/^[0-9a-f]{128}$/i.test(signature)) return false;
  const expected = crypto.createHmac('sha512', secretKey).update(rawBody).digest();
  return crypto.timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}
