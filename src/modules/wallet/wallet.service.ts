// Wallet use cases: W1 top-up, W2 status, balance, and the ledger/transaction lists the console shows.
import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { recordAudit } from '../../platform/audit/index.js';
import { isEmail } from '../../platform/email.js';
import { badRequest, invalidField, notFound } from '../../platform/errors.js';
import { markIdempotentChange } from '../../platform/idempotency-claims.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import { pageOffset } from '../../platform/paginator.js';
import { columnToNumber, koboToString, parseKobo } from '../../tax-engine/money.js';
import type { Providers } from './providers/index.js';
import { type WalletTransactionRow, walletRepo } from './wallet.repo.js';
import { serializeEntry, serializeTransaction } from './wallet.serializer.js';
import { WALLET_VERIFY } from './wallet.verification.service.js';
import { creditTopUpOnce } from './wallet-ledger.service.js';

export const MESSAGES = {
  emailRequired: 'Customer email is required for API requests.',
  redirectRequired: 'Redirect URL is required for API requests.',
  emailInvalid: 'The customer email must be a valid email address.',
  amountRequired: 'The amount field is required.',
  amountNotNumber: 'The amount must be a number.',
  amountRange: 'The amount must be between 100 and 100,000,000.',
  amountPrecision: 'The amount must have at most two decimal places.',
  redirectInvalid: 'The redirect URL must be a valid http or https URL.',
  redirectNotAuthorized: 'The redirect URL is not on a domain authorized for this company.',
  referenceRequired: 'The transaction reference field is required.',
  transactionNotFound: 'Transaction not found.',
} as const;

const MIN_KOBO = 100n * 100n;
const MAX_KOBO = 100_000_000n * 100n;

export interface TopUpInput {
  /** A JSON number or a decimal string (platform/schemas.ts MoneyInput). */
  amount?: unknown;
  customer_email?: string;
  redirect_url?: string;
}

const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

function parseAmount(raw: unknown): bigint {
  if (blank(raw)) throw invalidField('amount', MESSAGES.amountRequired);
  if (typeof raw !== 'number' && typeof raw !== 'string') throw invalidField('amount', MESSAGES.amountNotNumber);
  if (typeof raw === 'number' && !(raw >= 100 && raw <= 100_000_000)) throw invalidField('amount', MESSAGES.amountRange);
  // A JSON number prints as its shortest round-trip decimal, so 1500.1 reads as "1500.1", exactly.
  const text = typeof raw === 'number' ? String(raw) : String(raw).trim();
  if (!/^-?\d+(\.\d+)?$/.test(text)) throw invalidField('amount', MESSAGES.amountNotNumber);
  const kobo = parseKobo(text);
  if (kobo === null) throw invalidField('amount', MESSAGES.amountPrecision);
  if (kobo < MIN_KOBO || kobo > MAX_KOBO) throw invalidField('amount', MESSAGES.amountRange);
  return kobo;
}

function bareHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
}

const isIpLiteral = (host: string) => /^[\d.]+$/.test(host) || host.includes(':');

/**
 * http(s) only, no user-info, and the host must be an authorized host or a subdomain of one
 * (authorizing `acme.com` allows `pay.acme.com`, never `evilacme.com`; IP addresses match exactly).
 * Ports are not part of the match.
 */
export function checkRedirectUrl(raw: string, authorizedHosts: string[], ownOrigin?: string): string {
  // URL parsing would percent-encode a control character (a NUL included) into a valid URL: refuse it.
  if ([...raw].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f))
    throw invalidField('redirect_url', MESSAGES.redirectInvalid);
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalidField('redirect_url', MESSAGES.redirectInvalid);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || !url.hostname || raw.length > 2048) {
    throw invalidField('redirect_url', MESSAGES.redirectInvalid);
  }
  // The service's own PUBLIC_URL origin is always allowed (the web console's Top up returns there).
  if (ownOrigin && url.origin === ownOrigin) return url.toString();
  const host = bareHost(url.hostname);
  const allowed = authorizedHosts
    .map(bareHost)
    .some((authorized) => host === authorized || (!isIpLiteral(authorized) && host.endsWith(`.${authorized}`)));
  if (!allowed) throw invalidField('redirect_url', MESSAGES.redirectNotAuthorized);
  return url.toString();
}

function safeOrigin(publicUrl: string): string | undefined {
  try {
    return new URL(publicUrl).origin;
  } catch {
    return undefined;
  }
}

/** What a reference can look like (ours and Paystack's alphabet); used to refuse junk before any query. */
export const REFERENCE_SHAPE = /^[A-Za-z0-9._=-]{1,100}$/;

/** `WT-` and 24 hex characters: unique, unguessable, and valid as a Paystack reference. */
export function newReference(): string {
  return `WT-${crypto.randomBytes(12).toString('hex').toUpperCase()}`;
}

export interface WalletServiceDeps {
  db: Db;
  jobs: JobQueue;
  config: Pick<Config, 'walletVerifyDelaySeconds' | 'publicUrl'>;
  providers: Providers;
}

export function createWalletService(deps: WalletServiceDeps) {
  const { db, jobs, config, providers } = deps;
  const ownOrigin = safeOrigin(config.publicUrl);

  return {
    /** W1: validate, write the pending row and its verification job together, then ask the provider for a checkout URL. */
    async topUp(companyId: number, input: TopUpInput, log: FastifyBaseLogger) {
      if (blank(input.customer_email)) throw invalidField('customer_email', MESSAGES.emailRequired);
      if (blank(input.redirect_url)) throw invalidField('redirect_url', MESSAGES.redirectRequired);
      const email = String(input.customer_email).trim();
      if (!isEmail(email)) throw invalidField('customer_email', MESSAGES.emailInvalid);
      const amountKobo = parseAmount(input.amount);
      const redirectUrl = checkRedirectUrl(String(input.redirect_url), await walletRepo.redirectHosts(db, companyId), ownOrigin);

      const provider = providers.current;
      const reference = newReference();
      await db.transaction(async (tx) => {
        await walletRepo.createPending(tx, companyId, {
          reference,
          amount: koboToString(amountKobo),
          provider: provider.name,
          customerEmail: email,
          redirectUrl,
        });
        await jobs.enqueue(tx, WALLET_VERIFY, { reference }, { delaySeconds: config.walletVerifyDelaySeconds });
        await markIdempotentChange(tx, { kind: 'wallet-transaction', id: reference });
        // The request only (pending); the credit, when paid, is recorded as wallet.credited.
        await recordAudit(tx, [
          {
            companyId,
            action: 'wallet.top_up_requested',
            target: { type: 'wallet_transaction', id: reference },
            changes: { amount: [null, koboToString(amountKobo)], provider: [null, provider.name] },
          },
        ]);
      });
      let checkoutUrl: string;
      try {
        ({ checkoutUrl } = await provider.initialize({ reference, amountKobo, currency: 'NGN', email, callbackUrl: redirectUrl }));
      } catch (error) {
        // The payer never got a checkout URL, so nothing can be paid: close the top-up, answer 500.
        await walletRepo.failIfPending(db, reference, 'initialize_failed', {
          error: error instanceof Error ? error.message : String(error),
        });
        log.error({ err: error, reference }, 'payment provider could not initialize a top-up');
        throw error;
      }
      await walletRepo.setCheckoutUrl(db, companyId, reference, checkoutUrl);
      return { status: 'success' as const, checkoutUrl, transactionReference: reference };
    },

    /**
     * A sandbox top-up that was paid: the transaction (provider `sandbox`) and its ledger credit in
     * one transaction, as the sandbox checkout and the verification job leave them. For the demo
     * seed, which funds its company before the server listens; test money, shown as sandbox_balance.
     */
    async creditSandboxTopUp(companyId: number, input: { amount: string; customerEmail: string; redirectUrl: string }) {
      const reference = newReference();
      await db.transaction(async (tx) => {
        await walletRepo.createPending(tx, companyId, { reference, provider: 'sandbox', ...input });
        await creditTopUpOnce(tx, reference, { sandbox: true, outcome: 'success' });
      });
      return reference;
    },

    /** W2. Another company's reference is simply not found. */
    async transactionStatus(companyId: number, reference: string | undefined) {
      if (blank(reference)) throw badRequest(MESSAGES.referenceRequired);
      const text = String(reference).trim();
      // Anything that cannot be one of our references (control characters, huge strings) is not found, without a query.
      const row = REFERENCE_SHAPE.test(text) ? await walletRepo.findByReference(db, companyId, text) : undefined;
      if (!row) throw notFound(MESSAGES.transactionNotFound);
      return { status: 'success' as const, transaction_status: row.status, transaction: serializeTransaction(row) };
    },

    /** `sandbox_balance` (an addition to the documented shape): the part of `balance` that is sandbox money. */
    async balance(companyId: number) {
      const { balance, sandbox } = await walletRepo.balance(db, companyId);
      return {
        status: 'success' as const,
        balance: columnToNumber(balance),
        currency: 'NGN' as const,
        sandbox_balance: columnToNumber(sandbox),
      };
    },

    /** Balance as an exact decimal string (`"1500.50"`), for pages that format naira themselves. */
    async balanceDecimal(companyId: number): Promise<string> {
      return (await walletRepo.balance(db, companyId)).balance;
    },

    /** Balance and its sandbox part as exact decimal strings (the console's wallet page). */
    async balanceParts(companyId: number): Promise<{ balance: string; sandbox: string }> {
      return walletRepo.balance(db, companyId);
    },

    /** Ledger entries, newest first (web console); `amount_decimal` is the exact string. */
    async listEntries(companyId: number, page = 1, perPage = 50) {
      const rows = await walletRepo.listEntries(db, companyId, perPage, pageOffset(page, perPage));
      // `reference`: a payroll debit's `<run id>-A<attempt>` (the console links it to its run).
      return rows.map((row) => ({ ...serializeEntry(row), amount_decimal: row.amount, reference: row.reference }));
    },

    /** Top-up transactions, newest first (web console); `amount_decimal` is the exact string. */
    async listTransactions(companyId: number, page = 1, perPage = 50) {
      const rows: WalletTransactionRow[] = await walletRepo.listTransactions(db, companyId, perPage, pageOffset(page, perPage));
      return rows.map((row) => ({ ...serializeTransaction(row), amount_decimal: row.amount }));
    },
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
