// The read every console page starts with (console-sessions.repo.ts, `findSessionWithGeneration`) reads the
// session's user by its primary key whatever the statistics say: here, those of a web_sessions table
// analysed while its only sessions were early users', as a busy database's statistics lag behind
// the newest companies' sign-ins. On those statistics the plain join's generic plan was a merge join
// walking `users_pkey` from the first user up to the session's: every user created before the
// admin, read at every view (docs/console.md, "Overview pages"). Counted as the rows of users
// fetched (test/helpers/rows-read.ts).
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createStaff, createUsers } from '../../../test/helpers/factories.js';
import { rowsReadBy } from '../../../test/helpers/rows-read.js';
import { consoleSessionsRepo } from './console-sessions.repo.js';

let ctx: TestContext;
const EARLIER_USERS = 1_000;
const hash = (label: string) => crypto.createHash('sha256').update(`${label}-${crypto.randomUUID()}`).digest('hex');
let lateHash: string;
let lateEmail: string;

beforeAll(async () => {
  ctx = await createTestApp();
  const first = await createCompany(ctx.db);
  const expiresAt = new Date(Date.now() + 3_600_000);
  for (const early of await createUsers(ctx.db, first.id, [{}, {}, {}])) {
    await consoleSessionsRepo.insertSession(ctx.db, first.id, { tokenHash: hash('early'), csrfToken: 'c', userId: early.id, expiresAt });
  }
  await ctx.db.execute(sql`ANALYZE web_sessions`);
  await createStaff(ctx.db, first.id, EARLIER_USERS);
  await ctx.db.execute(sql`ANALYZE users`);
  const later = await createCompany(ctx.db);
  const [admin] = await createUsers(ctx.db, later.id, [{}]);
  lateHash = hash('late');
  lateEmail = admin.email;
  await consoleSessionsRepo.insertSession(ctx.db, later.id, { tokenHash: lateHash, csrfToken: 'c', userId: admin.id, expiresAt });
}, 120_000);
afterAll(() => ctx.close());

it("reads the session's own user, not the users created before it", async () => {
  const { result, rows } = await rowsReadBy(
    ctx.db,
    'users',
    async (tx) => (await consoleSessionsRepo.findSessionWithGeneration(tx, lateHash)).record,
  );
  expect(result?.email).toBe(lateEmail);
  // One row, by its key. Through the merge join it was every user up to the admin, 1,006.
  expect(rows).toBe(1);
});
