// U3's lookup (users_create_lookup, migrations 0204, 0266 and 0267; docs/users.md, "Performance
// notes"): a name's stem is read only when its first address is taken, by a live user or a deleted
// one, and that test is an index probe, never a scan of every user of every company; personal
// e-mails and managers are found by their own index whatever the statistics.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, createStaff, type TestCompany } from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { clientTableReads } from '../../../../test/helpers/rows-read.js';
import { createUserViaApi } from '../../../../test/helpers/users.js';

let ctx: TestContext;
let acme: TestCompany;
beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db);
});
afterAll(() => ctx.close());

describe('U3 lookup', () => {
  it('never hands out again an address whose only holder was deleted', async () => {
    const first = await createUserViaApi(ctx.app, acme, { first_name: 'Uche', last_name: 'Nwosu' });
    expect(first.email).toBe(`uche.nwosu@${acme.domain}`);
    expect((await as(ctx.app, acme).delete(`/api/users/${first.id}`)).statusCode).toBe(200);
    expect((await createUserViaApi(ctx.app, acme, { first_name: 'Uche', last_name: 'Nwosu' })).email).toBe(`uche.nwosu2@${acme.domain}`);
  });

  describe.skipIf(!process.env.DATABASE_URL)('on PostgreSQL', () => {
    /** The lookup's rows and how many sequential scans of users it made, on a connection of its own. */
    async function lookup(stem: string, exact: string): Promise<{ found: string[]; seqScans: number }> {
      const client = new pg.Client({ connectionString: ctx.testDb.url });
      await client.connect();
      try {
        // Without this a planner may still scan a test's small table; with it, it scans only where no index can answer.
        await client.query('SET enable_seqscan = off');
        await client.query('BEGIN');
        // Before and after in one transaction (test/helpers/rows-read.ts says why).
        const scansBefore = await clientTableReads(client, 'users', 'seq_scan');
        const found = await client.query<{ found_email: string }>(
          'SELECT found_email FROM users_create_lookup($1, $2::int[], $3::text[], $4::text[], $5::text[], $6::text[])',
          [acme.id, [], [stem], [exact], ['nobody@personal.test'], []],
        );
        const seqScans = (await clientTableReads(client, 'users', 'seq_scan')) - scansBefore;
        await client.query('ROLLBACK');
        return { found: found.rows.map((row) => row.found_email).sort(), seqScans };
      } finally {
        await client.end();
      }
    }

    it('finds a personal e-mail and a manager by their own index in a large company never analyzed (0267)', async () => {
      const big = await createCompany(ctx.db);
      const people = await createStaff(ctx.db, big.id, 2000);
      const [boss] = people;
      const client = new pg.Client({ connectionString: ctx.testDb.url });
      await client.connect();
      /** Rows users' indexes led `statement` to, in a transaction of its own (rolled back). */
      const fetched = async (statement: string, values: unknown[]) => {
        // Before and after in one transaction (test/helpers/rows-read.ts says why).
        const counted = () => clientTableReads(client, 'users', 'idx_tup_fetch');
        await client.query('BEGIN');
        const before = await counted();
        const rows = (await client.query(statement, values)).rows;
        const fetched = (await counted()) - before;
        await client.query('ROLLBACK');
        return { rows, fetched };
      };
      try {
        const lookup = await fetched(
          'SELECT found_kind, found_email, found_id FROM users_create_lookup($1, $2::int[], $3::text[], $4::text[], $5::text[], $6::text[])',
          [big.id, [], [], [], [boss.personalEmail, 'nobody@personal.test'], [boss.email]],
        );
        expect(lookup.rows).toEqual([
          { found_kind: 'personal', found_email: boss.personalEmail, found_id: boss.id },
          { found_kind: 'manager', found_email: boss.email, found_id: boss.id },
        ]);
        expect(lookup.fetched).toBeLessThanOrEqual(4);
        const reservation = await fetched('SELECT last_number, reserved FROM users_reserve_numbers($1, $2::text[])', [
          big.id,
          [boss.personalEmail, 'nobody@personal.test'],
        ]);
        expect(reservation.rows[0].reserved).toBe(1);
        expect(reservation.fetched).toBeLessThanOrEqual(4);
        // The functions' own plan_cache_mode ends with them.
        expect((await client.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode')).rows[0].plan_cache_mode).toBe('auto');
      } finally {
        await client.end();
      }
    });

    it('reads a stem only when its first address is taken, by index probes alone', async () => {
      await createUserViaApi(ctx.app, acme, { first_name: 'Bisi', last_name: 'Ade' });
      await createUserViaApi(ctx.app, acme, { first_name: 'Bisi', last_name: 'Ade' });
      expect(await lookup(`bisi.ade@${acme.domain}`, `bisi.ade@${acme.domain}`)).toEqual({
        found: [`bisi.ade2@${acme.domain}`, `bisi.ade@${acme.domain}`],
        seqScans: 0,
      });
      // The stem holds addresses, but the name's first address is free: nothing to read.
      expect(await lookup(`bisi.ade@${acme.domain}`, `bisi.ade7@${acme.domain}`)).toEqual({ found: [], seqScans: 0 });
    });
  });
});
