// The ceiling: bare Fastify (no logger, hooks, auth, limits or database) returning the same JSON
// a 20-user page of the real server returns, serialized on every request.
import fs from 'node:fs';
import Fastify from 'fastify';

const payload = JSON.parse(fs.readFileSync(process.env.BENCH_PAYLOAD_FILE as string, 'utf8')) as unknown;
const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
app.get('/api/users', async () => payload);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
