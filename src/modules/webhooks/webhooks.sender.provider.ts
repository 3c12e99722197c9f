// One HTTP attempt of one delivery: POST the stored body with the Standard Webhooks headers, no
// redirects followed (a 3xx is a failure), at most the configured timeout, at most 1 KiB of the
// answer kept. The SSRF rule is applied to the address actually connected to: a guarded DNS lookup
// drops internal addresses, and the socket's remote address is checked again once connected (an
// IP-literal host never goes through the lookup).
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction, type Socket } from 'node:net';
import { isInternalAddress, URL_MESSAGES } from './webhooks.address.rules.js';

export const RESPONSE_BODY_LIMIT = 1024;
/** Past this much answer the connection is dropped instead of drained. */
const DRAIN_LIMIT = 64 * 1024;
export const USER_AGENT = 'Payroll-Webhooks/1.0 (+https://www.standardwebhooks.com)';

export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
}

export interface SenderOptions {
  allowPrivateNetworks: boolean;
  allowHttp: boolean;
  timeoutMs: number;
}

class BlockedAddressError extends Error {}

function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as dns.LookupAddress[];
      const allowed = allowPrivate ? list : list.filter((entry) => !isInternalAddress(entry.address));
      if (allowed.length === 0) return callback(new BlockedAddressError(URL_MESSAGES.internal), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, allowed);
      callback(null, allowed[0].address, allowed[0].family);
    });
  };
}

export function createHttpSender(options: SenderOptions) {
  const agentOptions = { keepAlive: true, maxSockets: 64, lookup: guardedLookup(options.allowPrivateNetworks) };
  const httpAgent = new http.Agent(agentOptions);
  const httpsAgent = new https.Agent(agentOptions);

  function checkSocket(socket: Socket, fail: (error: Error) => void) {
    const check = () => {
      const address = socket.remoteAddress;
      if (!options.allowPrivateNetworks && (address === undefined || isInternalAddress(address))) {
        fail(new BlockedAddressError(URL_MESSAGES.internal));
      }
    };
    if (socket.connecting) socket.once('connect', check);
    else check();
  }

  function send(url: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
    return new Promise((resolve) => {
      let settled = false;
      // Declared before the checks that answer without a request (they finish before it is set).
      let timer: NodeJS.Timeout | undefined;
      const finish = (result: AttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return finish({ statusCode: null, error: URL_MESSAGES.invalid, responseBody: null });
      }
      const secure = target.protocol === 'https:';
      if (!secure && !(options.allowHttp && target.protocol === 'http:')) {
        return finish({ statusCode: null, error: URL_MESSAGES.https, responseBody: null });
      }
      // An IP-literal host skips the lookup; refused before connecting, so a form the network
      // cannot route (`[::7f00:1]`) is still reported as what it is rather than as a connect error.
      const literal = target.hostname.replace(/^\[|\]$/g, '');
      if (!options.allowPrivateNetworks && net.isIP(literal) && isInternalAddress(literal)) {
        return finish({ statusCode: null, error: URL_MESSAGES.internal, responseBody: null });
      }
      const request = (secure ? https : http).request(target, {
        method: 'POST',
        agent: secure ? httpsAgent : httpAgent,
        headers: { ...headers, 'content-type': 'application/json', 'user-agent': USER_AGENT, 'content-length': Buffer.byteLength(body) },
      });
      const fail = (error: Error) => {
        request.destroy(error);
        finish({ statusCode: null, error: error.message || String(error), responseBody: null });
      };
      timer = setTimeout(() => fail(new Error(`No answer within ${options.timeoutMs} ms.`)), options.timeoutMs);
      request.on('socket', (socket) => checkSocket(socket, fail));
      request.on('error', (error) => finish({ statusCode: null, error: error.message || 'Connection failed.', responseBody: null }));
      request.on('response', (response) => {
        const kept: Buffer[] = [];
        let keptBytes = 0;
        let seen = 0;
        response.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (keptBytes < RESPONSE_BODY_LIMIT) {
            const part = chunk.subarray(0, RESPONSE_BODY_LIMIT - keptBytes);
            kept.push(part);
            keptBytes += part.length;
          }
          if (seen > DRAIN_LIMIT) response.destroy();
        });
        const done = () => {
          const statusCode = response.statusCode ?? null;
          const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
          finish({
            statusCode,
            error: ok ? null : `The receiver answered ${statusCode}.`,
            responseBody: Buffer.concat(kept).toString('utf8').replaceAll(String.fromCharCode(0), '') || null,
          });
        };
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      });
      request.end(body);
    });
  }

  return {
    send,
    close() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

export type HttpSender = ReturnType<typeof createHttpSender>;
