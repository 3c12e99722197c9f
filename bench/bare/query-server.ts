// The baseline: bare Fastify + Drizzle on node-postgres doing exactly the data work of the real
// GET /api/users on PostgreSQL (the same page statement, whose users' JSON text PostgreSQL writes, and
// the same envelope and send, users.service.ts listForApi) with nothing of
// the platform around it: no logger, authentication, tenancy, rate limits, metrics or request ids.
import Fastify from 'fastify';
import { openPostgres } from '../../src/db/client.js';
import { usersReadRepo } from '../../src/modules/users/read/users.read.repo.js';
import { usersRepo } from '../../src/modules/users/users.repo.js';
import { userListJson } from '../../src/modules/users/users.service.js';

const companyId = Number(process.env.BENCH_COMPANY_ID);
// The real server's pool size (runtime.ts opens PostgreSQL with the default of openPostgres).
const database = await openPostgres(process.env.DATABASE_URL as string);
const { db } = database;

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
// The SQL of U1's statements, for the physical-limit script (bench/bare/physical-limit.ts).
app.get('/statements', async () => usersRepo.listStatements(db));
// On PostgreSQL the page arrives as each user's JSON text (users.service.ts), put in the list's envelope.
app.get('/api/users', async (request, reply) => {
  const perPage = Number((request.query as { per_page?: string }).per_page ?? 100);
  const { users, total } = await usersReadRepo.pageJson(db, companyId, 0, perPage, true);
  // As platform/json-text.ts sendJsonText sends it (bench/ reaches src/ only through public entries).
  return reply.type('application/json; charset=utf-8').send(userListJson(users, total, 1));
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0)),
);
