// Banks test helpers: a fake Paystack answering GET /bank/resolve (node:http on 127.0.0.1, port 0),
// whose answer each test sets per account number, and valid NUBANs to type into user records.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { nubanFor } from '../../src/modules/banks/index.js';

export type FakeAnswer =
  | { kind: 'json'; httpStatus?: number; body: unknown }
  | { kind: 'raw'; httpStatus: number; text: string }
  | { kind: 'hang' };

export interface FakeResolver {
  url: string;
  secret: string;
  /** Every request the server received. */
  requests: { method: string; url: string; authorization: string | undefined }[];
  /** What GET /bank/resolve answers, per account number (default: 422 "Could not resolve account name"). */
  answers: Map<string, FakeAnswer>;
  close(): Promise<void>;
}

/** Paystack's answer for an account it found. */
export const resolved = (accountNumber: string, accountName: string): FakeAnswer => ({
  kind: 'json',
  body: {
    status: true,
    message: 'Account number resolved',
    data: { account_number: accountNumber, account_name: accountName, bank_id: 9 },
  },
});

export async function startFakeResolver(secret = `sk_test_${crypto.randomBytes(8).toString('hex')}`): Promise<FakeResolver> {
  const fake = { secret, requests: [] as FakeResolver['requests'], answers: new Map<string, FakeAnswer>() };
  const server = http.createServer((req, res) => {
    fake.requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    const send = (answer: FakeAnswer) => {
      if (answer.kind === 'hang') return; // never answers: the client's timeout decides
      const text = answer.kind === 'raw' ? answer.text : JSON.stringify(answer.body);
      res.writeHead(answer.httpStatus ?? 200, { 'content-type': 'application/json' }).end(text);
    };
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.headers.authorization !== `Bearer ${secret}`)
      return send({ kind: 'json', httpStatus: 401, body: { status: false, message: 'Invalid key' } });
    if (req.method !== 'GET' || url.pathname !== '/bank/resolve') {
      return send({ kind: 'json', httpStatus: 404, body: { status: false, message: 'Not found' } });
    }
    const account = url.searchParams.get('account_number') ?? '';
    send(
      fake.answers.get(account) ?? {
        kind: 'json',
        httpStatus: 422,
        body: { status: false, message: 'Could not resolve account name. Check parameters or try again.' },
      },
    );
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
  });
}

let serial = 100_000_000;
/** A fresh valid NUBAN at `code` (a different one on every call). */
export const validNuban = (code: string) => nubanFor(code, String(serial++).padStart(9, '0'));

/** The same number with its check digit changed: never a valid NUBAN at `code`. */
export const invalidNuban = (code: string) => {
  const valid = validNuban(code);
  return `${valid.slice(0, 9)}${(Number(valid[9]) + 1) % 10}`;
};
