// A webhook receiver as an integration would run one: node:http, the raw body verified with
// verifyWebhook before anything is trusted (401 otherwise, so the sender retries), 204 within the
// 10 s the sender waits, deliveries deduplicated by webhook-id (every retry carries the same id).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, type WebhookEvent } from '../clients/typescript/src/index.js';

export interface WebhookReceiver {
  /** http://127.0.0.1:<port><path>: what to register when the server may call this machine. */
  localUrl: string;
  /** The endpoint's secret, once registered (deliveries before it are refused). */
  useSecret(secret: string): void;
  /** The first verified event that satisfies `match`, waiting up to `timeoutMs`. */
  waitFor(match: (event: WebhookEvent) => boolean, timeoutMs: number): Promise<WebhookEvent>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(port = 0, path = '/payroll-webhooks'): Promise<WebhookReceiver> {
  let secret: string | undefined;
  const seen = new Set<string>();
  const events: WebhookEvent[] = [];
  const waiters = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== path || secret === undefined) return res.writeHead(404).end();
      let event: WebhookEvent;
      try {
        event = verifyWebhook(secret, req.headers, Buffer.concat(chunks));
      } catch {
        return res.writeHead(401).end();
      }
      const id = String(req.headers['webhook-id']);
      if (!seen.has(id)) {
        seen.add(id);
        events.push(event);
        for (const wake of waiters) wake();
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    localUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    useSecret(value) {
      secret = value;
    },
    waitFor(match, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching webhook delivery within ${timeoutMs / 1000} s`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
