// One in-memory test database per test worker, emptied between the files that use it, instead of a
// database opened from the run's image for every file (docs/architecture.md, "Tests").
//
// Opening one costs ~0.4 s of wall and 0.6-0.9 s of CPU (PGlite unpacks its ~400-file bundle and the
// image into its in-memory file system and starts the backend); emptying one ~140-200 ms and
// 160-260 ms of CPU (measured 29 November, after a file of 200 employees). A database comes back
// to a state a test cannot tell from a fresh one:
// - every table emptied and every sequence restarted (TRUNCATE ... RESTART IDENTITY), then the rows
//   the migrations wrote copied back (exact bytes, COPY through PGlite's /dev/blob);
// - the planner's statistics as the image has them: pg_statistic emptied and the migrations' rows
//   ANALYZEd again, each relation's pages and tuples (pg_class) written back, the counters reset;
// - the session's state dropped (DISCARD ALL: settings, prepared statements, temporary tables,
//   LISTEN, advisory locks).
// A database whose catalog a file changed (a table, index, trigger, function, setting, ...) is not
// reused: it is closed, and the next file opens a fresh one. The handle a file was given stops
// working when it closes it, so nothing a file left running can touch the next file's data.
// `pglite-reuse.test.ts` holds a reused database equal to a freshly opened one.
import type { PGlite } from '@electric-sql/pglite';
import { type Database, pgliteDatabase } from '../../src/db/client.js';

/** What a reset brings back, read from a freshly opened database (the same for every open of the image). */
interface Baseline {
  catalog: string;
  tables: string[];
  sequences: string[];
  seeded: { table: string; copy: Blob }[];
  relationStats: string;
}

const USER_NAMESPACES = `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_temp%' AND n.nspname NOT LIKE 'pg_toast_temp%'`;

/**
 * Everything a file could change that emptying the tables would not undo, as one digest: relations,
 * columns, defaults, constraints, indexes, views' rules, triggers, functions, types, schemas,
 * extensions, roles, policies, sequences' definitions and per-database or per-role settings. Read
 * from the catalogs' own columns (expressions as their stored node trees): the pg_get_*def
 * functions made it ~110 ms a reset.
 */
const CATALOG_DIGEST = `
SELECT md5(string_agg(x, E'\\n' ORDER BY x)) AS digest FROM (
  SELECT concat_ws(' ', 'c', c.oid, c.relname, c.relnamespace, c.relkind, c.relpersistence, c.relrowsecurity, c.relreplident,
         c.relnatts, c.relchecks, c.relhastriggers, c.relhasrules) AS x
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE ${USER_NAMESPACES} AND n.nspname <> 'pg_toast'
  UNION ALL SELECT concat_ws(' ', 'a', a.attrelid, a.attnum, a.attname, a.atttypid, a.atttypmod, a.attnotnull, a.attisdropped,
         a.attgenerated, a.attstattarget, a.attcollation)
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE ${USER_NAMESPACES} AND n.nspname <> 'pg_toast' AND a.attnum > 0
  UNION ALL SELECT concat_ws(' ', 'd', adrelid, adnum, md5(adbin::text)) FROM pg_attrdef
  UNION ALL SELECT concat_ws(' ', 'k', oid, conrelid, conname, contype, convalidated, condeferrable, conkey, confrelid, confkey,
         confupdtype, confdeltype, md5(conbin::text)) FROM pg_constraint
   WHERE connamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
  UNION ALL SELECT concat_ws(' ', 'i', i.indexrelid, i.indrelid, i.indkey, i.indclass, i.indisunique, i.indisvalid, i.indnullsnotdistinct,
         md5(i.indexprs::text), md5(i.indpred::text)) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace WHERE ${USER_NAMESPACES} AND n.nspname <> 'pg_toast'
  UNION ALL SELECT concat_ws(' ', 'r', ev_class, rulename, ev_enabled, md5(ev_action::text)) FROM pg_rewrite
   WHERE ev_class >= 16384
  UNION ALL SELECT concat_ws(' ', 't', tgrelid, tgname, tgenabled, tgfoid, tgtype) FROM pg_trigger
  UNION ALL SELECT concat_ws(' ', 'f', p.oid, p.proname, p.proargtypes, p.prorettype, md5(p.prosrc)) FROM pg_proc p
   WHERE p.pronamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
  UNION ALL SELECT concat_ws(' ', 'y', t.oid, t.typname) FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
   WHERE ${USER_NAMESPACES} AND n.nspname <> 'pg_toast'
  UNION ALL SELECT concat_ws(' ', 'q', seqrelid, seqstart, seqincrement, seqmin, seqmax, seqcycle) FROM pg_sequence
  UNION ALL SELECT concat_ws(' ', 'n', nspname) FROM pg_namespace n WHERE ${USER_NAMESPACES}
  UNION ALL SELECT concat_ws(' ', 'e', extname, extversion) FROM pg_extension
  UNION ALL SELECT concat_ws(' ', 'o', rolname, rolsuper, rolcanlogin) FROM pg_roles
  UNION ALL SELECT concat_ws(' ', 'p', polrelid, polname, md5(polqual::text)) FROM pg_policy
  UNION ALL SELECT concat_ws(' ', 'x', stxname) FROM pg_statistic_ext
  UNION ALL SELECT concat_ws(' ', 's', setdatabase, setrole, array_to_string(setconfig, ',')) FROM pg_db_role_setting
) parts`;

const RELATIONS = (kinds: string) => `SELECT c.oid::regclass::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE c.relkind IN (${kinds}) AND ${USER_NAMESPACES} AND n.nspname <> 'pg_toast' ORDER BY 1`;

/** Pages, tuples and visible pages of every relation outside the system catalogs (tables, indexes, TOAST). */
const RELATION_STATS = `SELECT json_agg(json_build_object('oid', c.oid, 'relpages', c.relpages, 'reltuples', c.reltuples,
  'relallvisible', c.relallvisible))::text AS stats FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE ${USER_NAMESPACES} AND c.relkind IN ('r', 'p', 'i', 't', 'm')`;

const RESET_TIMEOUT_MS = 15_000;
const abandonAfter = (ms: number) =>
  new Promise<'abandoned'>((resolve) => {
    setTimeout(() => resolve('abandoned'), ms).unref();
  });

let baseline: Baseline | undefined;
let idle: PGlite | undefined;
let reused = 0;

/** How many test databases this worker has handed out again instead of opening (for the reuse test). */
export function reusedDatabases(): number {
  return reused;
}

async function digest(client: PGlite): Promise<string> {
  return (await client.query<{ digest: string }>(CATALOG_DIGEST)).rows[0].digest;
}

async function readBaseline(client: PGlite): Promise<Baseline> {
  const tables = (await client.query<{ name: string }>(RELATIONS(`'r', 'p'`))).rows.map((row) => row.name);
  const sequences = (await client.query<{ name: string }>(RELATIONS(`'S'`))).rows.map((row) => row.name);
  const seeded: Baseline['seeded'] = [];
  for (const table of tables) {
    const { rows } = await client.query<{ any: boolean }>(`SELECT EXISTS (SELECT FROM ${table}) AS any`);
    if (!rows[0].any) continue;
    const copied = await client.query(`COPY ${table} TO '/dev/blob'`);
    if (!copied.blob) throw new Error(`COPY ${table} gave no blob`);
    seeded.push({ table, copy: copied.blob });
  }
  const stats = (await client.query<{ stats: string }>(RELATION_STATS)).rows[0].stats;
  return { catalog: await digest(client), tables, sequences, seeded, relationStats: stats };
}

/** Empties `client` back to `base`, or says it cannot be (its catalog changed, or a statement failed). */
async function reset(client: PGlite, base: Baseline): Promise<boolean> {
  await client.exec('ROLLBACK');
  await client.exec('DISCARD ALL');
  if ((await digest(client)) !== base.catalog) return false;
  // In replica mode, so that the audit log's guard against TRUNCATE (docs/audit.md) does not fire.
  await client.exec(`SET session_replication_role = replica; TRUNCATE ${base.tables.join(', ')} RESTART IDENTITY CASCADE`);
  // Sequences no table owns are not restarted by TRUNCATE.
  await client.exec(base.sequences.map((sequence) => `ALTER SEQUENCE ${sequence} RESTART;`).join('\n'));
  for (const { table, copy } of base.seeded) await client.query(`COPY ${table} FROM '/dev/blob'`, [], { blob: copy });
  await client.exec(`DELETE FROM pg_statistic WHERE starelid IN (SELECT c.oid FROM pg_class c JOIN pg_namespace n
    ON n.oid = c.relnamespace WHERE ${USER_NAMESPACES})`);
  if (base.seeded.length > 0) await client.exec(`ANALYZE ${base.seeded.map((s) => s.table).join(', ')}`);
  await client.query(
    `UPDATE pg_class c SET relpages = s.relpages, reltuples = s.reltuples, relallvisible = s.relallvisible
       FROM json_to_recordset($1::json) AS s(oid oid, relpages int, reltuples real, relallvisible int) WHERE c.oid = s.oid`,
    [base.relationStats],
  );
  await client.exec('RESET session_replication_role; SELECT pg_stat_reset()');
  return true;
}

/** A database this worker emptied after an earlier file, if it has one. */
export function takeIdle(): PGlite | undefined {
  const client = idle;
  idle = undefined;
  if (client) reused += 1;
  return client;
}

/**
 * `client` (freshly opened from the migrated image, or taken back with takeIdle) as a test database
 * whose close empties it for the next file instead of closing it. `resetTimeoutMs` is the reuse
 * test's, which cannot wait 15 s.
 */
export async function lend(
  client: PGlite,
  { resetTimeoutMs = RESET_TIMEOUT_MS } = {},
): Promise<{ database: Database; close(): Promise<void> }> {
  baseline ??= await readBaseline(client);
  const base = baseline;
  let lent = true;
  // The file's handle: every use after close fails, as on a closed database.
  const handle = new Proxy(client, {
    get(target, property) {
      if (!lent) throw new Error('This test database was closed.');
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const database = pgliteDatabase(handle);
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      lent = false;
      // A file that left a transaction waiting holds PGlite's queue: its database is then dropped
      // (not closed, which would wait on that queue too) rather than holding up the next file.
      const outcome = idle ? 'closed' : await Promise.race([reset(client, base).catch(() => false), abandonAfter(resetTimeoutMs)]);
      if (outcome === true && !idle) idle = client;
      else if (outcome !== 'abandoned') await client.close();
    })();
    return closing;
  };
  return { database: { ...database, close }, close };
}
