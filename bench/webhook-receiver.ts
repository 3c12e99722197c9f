// The bench's webhook receiver: a minimal node:http server in a process of its own (so the sender's
// measured rate is not limited by a receiver sharing its event loop) that answers 200 to every
// POST, counts the distinct webhook-ids and the time of the first and the last request, and verifies
// a sample of the signatures with the standardwebhooks package (every SAMPLE-th request: verifying
// all of them would make the receiver, not the sender, the bottleneck on 2 cores).
// GET /healthz (ready), GET /stats (JSON), POST /reset; anything else is a delivery.
import http from 'node:http';
import { Webhook } from 'standardwebhooks';

const SAMPLE = 25;
const webhook = new Webhook(process.env.BENCH_WEBHOOK_SECRET ?? '');

let ids = new Set<string>();
let requests = 0;
let firstAt = 0;
let lastAt = 0;
let verified = 0;
let badSignatures = 0;
/** Event types of the verified sample. */
const sampledTypes: Record<string, number> = {};

function stats() {
  return { requests, distinct: ids.size, firstAt, lastAt, verified, badSignatures, sampledTypes };
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/healthz') return res.writeHead(200).end('ok');
  if (req.method === 'GET' && req.url === '/stats')
    return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stats()));
  if (req.method === 'POST' && req.url === '/reset') {
    ids = new Set();
    requests = firstAt = lastAt = verified = badSignatures = 0;
    for (const type of Object.keys(sampledTypes)) delete sampledTypes[type];
    return res.writeHead(204).end();
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const now = Date.now();
    requests += 1;
    if (firstAt === 0) firstAt = now;
    lastAt = now;
    const id = String(req.headers['webhook-id']);
    ids.add(id);
    if (requests % SAMPLE === 1) {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const event = webhook.verify(body, {
          'webhook-id': id,
          'webhook-timestamp': String(req.headers['webhook-timestamp']),
          'webhook-signature': String(req.headers['webhook-signature']),
        }) as { type: string };
        verified += 1;
        sampledTypes[event.type] = (sampledTypes[event.type] ?? 0) + 1;
      } catch {
        badSignatures += 1;
      }
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
});

server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
