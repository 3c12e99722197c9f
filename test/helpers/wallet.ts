// Wallet test helpers: a fake Paystack HTTP server (node:http on 127.0.0.1, port 0) whose answers
// each test sets per reference, plus small database helpers for the wallet tables.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../src/db/client.js';
import { redirectDomains } from '../../src/db/schema/index.js';
import { createCompany } from './factories.js';

export type FakeVerify =
  | { kind: 'json'; httpStatus?: number; body: unknown; delayMs?: number; headers?: Record<string, string> }
  | { kind: 'raw'; httpStatus: number; text: string }
  | { kind: 'hang'; ms: number };

export interface FakePaystack {
  url: string;
  secret: string;
  /** Every request the server received. */
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[];
  /** What POST /transaction/initialize answers (default: success with a checkout URL). */
  initialize: FakeVerify | undefined;
  /** What GET /transaction/verify/<reference> answers, per reference (default: abandoned). */
  verify: Map<string, FakeVerify>;
  /** More routes (salary transfers: test/helpers/paystack-transfers.ts); the first answer wins. */
  routes: ((method: string, url: string, body: string) => FakeVerify | undefined)[];
  close(): Promise<void>;
}

export function paystackVerified(
  reference: string,
  status: string,
  amountKobo: number,
  currency = 'NGN',
): Extract<FakeVerify, { kind: 'json' }> {
  return {
    kind: 'json',
    body: { status: true, message: 'Verification successful', data: { reference, status, amount: amountKobo, currency, id: 1 } },
  };
}

export async function startFakePaystack(secret = `sk_test_${crypto.randomBytes(8).toString('hex')}`): Promise<FakePaystack> {
  const fake: Omit<FakePaystack, 'url' | 'close'> = { secret, requests: [], initialize: undefined, verify: new Map(), routes: [] };
  const send = (res: http.ServerResponse, answer: FakeVerify) => {
    if (answer.kind === 'hang') {
      setTimeout(() => {
        if (!res.destroyed) res.end('{}');
      }, answer.ms);
      return;
    }
    const text = answer.kind === 'raw' ? answer.text : JSON.stringify(answer.body);
    const answerNow = () => {
      if (!res.destroyed)
        res
          .writeHead(answer.httpStatus ?? 200, { 'content-type': 'application/json', ...(answer.kind === 'json' ? answer.headers : {}) })
          .end(text);
    };
    if (answer.kind === 'json' && answer.delayMs) setTimeout(answerNow, answer.delayMs);
    else answerNow();
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      fake.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (req.headers.authorization !== `Bearer ${secret}`) {
        return send(res, { kind: 'json', httpStatus: 401, body: { status: false, message: 'Invalid key' } });
      }
      if (req.method === 'POST' && req.url === '/transaction/initialize') {
        const input = JSON.parse(body) as { reference: string };
        return send(
          res,
          fake.initialize ?? {
            kind: 'json',
            body: {
              status: true,
              message: 'Authorization URL created',
              data: {
                authorization_url: `https://checkout.paystack.test/${input.reference}`,
                access_code: 'ac',
                reference: input.reference,
              },
            },
          },
        );
      }
      const match = /^\/transaction\/verify\/(.+)$/.exec(req.url ?? '');
      if (req.method === 'GET' && match) {
        const reference = decodeURIComponent(match[1]);
        return send(res, fake.verify.get(reference) ?? paystackVerified(reference, 'abandoned', 0));
      }
      for (const route of fake.routes) {
        const answer = route(req.method ?? '', req.url ?? '', body);
        if (answer) return send(res, answer);
      }
      send(res, { kind: 'json', httpStatus: 404, body: { status: false, message: 'Not found' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as FakePaystack;
}

/** Signs a webhook body the way Paystack does. */
export function paystackSignature(secret: string, body: string): string {
  return crypto.createHmac('sha512', secret).update(body).digest('hex');
}

export async function allowRedirectHosts(db: Executor, companyId: number, hosts: string[]): Promise<void> {
  await db
    .insert(redirectDomains)
    .values(hosts.map((host) => ({ companyId, host })))
    .onConflictDoNothing();
}

/** Makes every pending wallet.verify job due now (instead of waiting for the delay). */
export async function makeVerifyJobsDue(db: Executor): Promise<void> {
  await db.execute(
    sql`UPDATE jobs SET run_at = now() - interval '1 second' WHERE kind = 'wallet.verify' AND done_at IS NULL AND failed_at IS NULL`,
  );
}

export async function ledgerFor(db: Executor, companyId: number) {
  return queryRows<{ amount: string; kind: string; transaction_reference: string }>(
    db,
    sql`SELECT amount::text AS amount, kind, transaction_reference FROM wallet_entries WHERE company_id = ${companyId} ORDER BY id`,
  );
}

export async function transactionRow(db: Executor, reference: string) {
  const rows = await queryRows<{
    status: string;
    failure_reason: string | null;
    verify_attempts: number;
    checkout_url: string | null;
    amount: string;
  }>(
    db,
    sql`SELECT status, failure_reason, verify_attempts, checkout_url, amount::text AS amount FROM wallet_transactions WHERE reference = ${reference}`,
  );
  return rows[0];
}

export async function verifyJobsFor(db: Executor, reference: string) {
  return queryRows<{ id: number; run_at: Date; attempts: number; done_at: Date | null; failed_at: Date | null; last_error: string | null }>(
    db,
    sql`SELECT id, run_at, attempts, done_at, failed_at, last_error FROM jobs WHERE kind = 'wallet.verify' AND payload->>'reference' = ${reference} ORDER BY id`,
  );
}

/** The wallet tests' answers and a valid W1 body for acme. */
export const WALLET_MESSAGES = {
  COMPANY_404: 'The company you are trying to access could not be found. Please verify the company ID and try again.',
  WALLET_403: "You do not have permission to access this company's wallet.",
  TX_403: "You do not have permission to access this company's transactions.",
};
export const VALID_TOP_UP = { amount: 1500.5, customer_email: 'payer@acme.test', redirect_url: 'https://acme.example/wallet/done' };

/** acme, its child company and an unrelated one, each allowed its own redirect hosts. */
export async function walletCompanies(db: Executor) {
  const acme = await createCompany(db);
  const child = await createCompany(db, { createdBy: acme.id });
  const other = await createCompany(db);
  await allowRedirectHosts(db, acme.id, ['acme.example', '127.0.0.1']);
  await allowRedirectHosts(db, child.id, ['child.example']);
  await allowRedirectHosts(db, other.id, ['other.example']);
  return { acme, child, other };
}
