// A real webhook receiver for tests: a node http server on 127.0.0.1 that records every request and
// answers as each path is told to (status codes in turn, or a delay longer than the sender waits).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Receiver {
  url(path: string): string;
  received: Received[];
  /** Answers for `path`, in turn (the last one repeats); a number > 999 is a delay in ms, then 200. */
  script(path: string, answers: number[]): void;
  on(path: string): Received[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const scripts = new Map<string, number[]>();
  const calls = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const answers = scripts.get(path) ?? [200];
      const n = calls.get(path) ?? 0;
      calls.set(path, n + 1);
      const answer = answers[Math.min(n, answers.length - 1)];
      if (answer > 999) setTimeout(() => res.writeHead(200).end('late'), answer).unref();
      else {
        // A 3xx points at `<path>/moved`: a sender that followed redirects would show up there.
        const location = answer >= 300 && answer < 400 ? { location: `${path}/moved` } : {};
        res.writeHead(answer, { 'content-type': 'text/plain', ...location }).end(answer >= 300 ? 'x'.repeat(5000) : 'ok');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    script: (path, answers) => scripts.set(path, answers),
    on: (path) => received.filter((r) => r.path === path),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Verifies a received request with the standardwebhooks library; returns the parsed body. */
export function verified(secret: string, request: Received) {
  return new Webhook(secret).verify(request.body, {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  }) as { type: string; timestamp: string; company_id: number; data: Record<string, unknown> };
}

/** Test settings: http and loopback allowed, a fast retry schedule and a short timeout. */
export const webhookTestConfig = {
  webhookAllowHttp: true,
  webhookAllowPrivateNetworks: true,
  webhookRetrySchedule: [0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2],
  webhookTimeoutMs: 400,
};
