// The resolvers without HTTP routes: Paystack's timeout and a refused key, and the name comparison.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AccountNotResolved,
  createPaystackResolver,
  createSandboxResolver,
  namesMatch,
  ResolverUnavailable,
} from './account-resolver.provider.js';

let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  // Never answers /bank/resolve (a hung Paystack); answers 401 to anything else.
  server = http.createServer((req, res) => {
    if (req.url?.startsWith('/bank/resolve')) return;
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"status":false,"message":"Invalid key"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

const input = { bankCode: '058', accountNumber: '0123456789', holderName: 'Ada Obi' };

describe('Paystack resolver', () => {
  it('gives up after its timeout with ResolverUnavailable (the API answers 502)', async () => {
    const started = Date.now();
    const resolver = createPaystackResolver({ secretKey: 'sk_test_x', baseUrl, timeoutMs: 200 });
    await expect(resolver.resolve(input)).rejects.toBeInstanceOf(ResolverUnavailable);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('treats a refused key and an unreachable server as unavailable, not as an unknown account', async () => {
    const refused = createPaystackResolver({ secretKey: 'sk_test_x', baseUrl: `${baseUrl}/other`, timeoutMs: 1_000 });
    await expect(refused.resolve(input)).rejects.toBeInstanceOf(ResolverUnavailable);
    const closed = createPaystackResolver({ secretKey: 'sk_test_x', baseUrl: 'http://127.0.0.1:1', timeoutMs: 1_000 });
    await expect(closed.resolve(input)).rejects.toBeInstanceOf(ResolverUnavailable);
  });
});

describe('sandbox resolver', () => {
  it('answers the holder name in capitals, and never resolves accounts starting with 999', async () => {
    await expect(createSandboxResolver().resolve(input)).resolves.toBe('ADA OBI');
    await expect(createSandboxResolver().resolve({ ...input, accountNumber: '9991234567' })).rejects.toBeInstanceOf(AccountNotResolved);
  });
});

describe('namesMatch', () => {
  it.each([
    ['ADA OBI', 'Ada', 'Obi', true],
    ['OBI ADA', 'Ada', 'Obi', true],
    ['Obi, Ada.', 'Ada', 'Obi', true],
    ["ZOE O'BRIEN-SMITH", 'Zoë', "O'Brien-Smith", true],
    ['ZOE OBRIEN SMITH', 'Zoë', "O'Brien-Smith", true],
    ['ZOE O BRIEN SMITH', 'Zoë', "O'Brien-Smith", true],
    ['ADA CHIOMA OBI', 'Ada', 'Obi', false],
    ['ADA', 'Ada', 'Obi', false],
    ['ADA OBIE', 'Ada', 'Obi', false],
    ['', 'Ada', 'Obi', false],
    ['...', 'Ada', 'Obi', false],
  ])('"%s" against %s %s: %s', (resolved, first, last, expected) => {
    expect(namesMatch(resolved, first, last)).toBe(expected);
  });
});
