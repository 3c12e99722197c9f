// The baseline: bare Fastify + Drizzle on node-postgres doing exactly the data work of the real
// GET /api/users (the same repo queries, list and count, and the same serializer) with nothing of
// the platform around it: no logger, authentication, tenancy, rate limits, metrics or request ids.
import Fastify from 'fastify';
import { openPostgres } from '../../src/db/client.js';
import { usersReadRepo } from '../../src/modules/users/users.read.repo.js';
import { usersRepo } from '../../src/modules/users/users.repo.js';
import { serializeUserRow } from '../../src/modules/users/users.serializer.js';

const companyId = Number(process.env.BENCH_COMPANY_ID);
// The real server's pool size (runtime.ts opens PostgreSQL with the default of openPostgres).
const database = await openPostgres(process.env.DATABASE_URL as string);
const { db } = database;

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
// The SQL of U1's statements, for the physical-limit script (bench/bare/physical-limit.ts).
app.get('/statements', async () => usersRepo.listStatements(db));
app.get('/api/users', async (request) => {
  const perPage = Number((request.query as { per_page?: string }).per_page ?? 100);
  const { rows, total } = await usersReadRepo.page(db, companyId, 0, perPage);
  return { Resources: rows.map((row) => serializeUserRow(row, true)), totalResults: total, startIndex: 1, itemsPerPage: rows.length };
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
