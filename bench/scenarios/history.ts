// Growth of history (docs/benchmarks.md, "Growth of history"): a job's enqueue and claim
// and a webhook event's recording, timed on empty tables, again after 1,000,000 finished jobs and
// 1,000,000 delivered webhook events (seeded in SQL, spread over 90 days, vacuumed as autovacuum
// would), then `payroll prune` (the compiled CLI, as cron runs it) timed, and the same measures
// once more after it. On a database of its own with the app built in this process and no job loop
// running, so that every claim timed is this scenario's. Writes bench/results/history.json.
// BENCH_SMOKE (CI): 10,000 of each.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { type Db, queryRows } from '../../src/db/client.js';
import { issueToken, setupCompany } from '../../src/modules/companies/index.js';
import { recordEvents } from '../../src/modules/webhooks/index.js';
import { formatMs, loadAverage, summarize, type Timing, timed, timeEach, writeResults } from '../lib/measure.js';
import { compiled } from '../lib/processes.js';
import { scratchDatabase } from '../lib/scratch-database.js';
import type { BenchContext, Scenario } from '../scenario.js';

const SMOKE = Boolean(process.env.BENCH_SMOKE);
const EVENTS = Number(process.env.BENCH_HISTORY_EVENTS || (SMOKE ? 10_000 : 1_000_000));
const JOBS = Number(process.env.BENCH_HISTORY_JOBS || (SMOKE ? 10_000 : 1_000_000));
/** Jobs waiting for a later run_at (retries, delayed sends): in the due index, but not due. */
const WAITING = SMOKE ? 1_000 : 10_000;
const SAMPLES = SMOKE ? 20 : 300;
const BATCH = 100_000;
const HISTORY_DAYS = 90;
/** A settled paystub's event body, as recorded (bench/lib/webhooks.ts sends the same shape). */
const EVENT_DATA = {
  run_id: 'TX-HISTORY',
  status: 'paid',
  net_pay: '187919.42',
  failure_reason: null,
  pay_period_start: '2031-03-01',
  pay_period_end: '2031-03-31',
};

type App = Awaited<ReturnType<typeof buildApp>>;

interface Measures {
  load: string;
  /** `runDue` with nothing due: the claim statement alone. */
  claim_nothing_due: Timing;
  /** `enqueue` of one job in its own statement. */
  enqueue: Timing;
  /** `runDue` of that job: the claim, its handler (one empty pay-schedules claim) and its finish. */
  claim_and_run: Timing;
  /** `recordEvents` of one event reaching one endpoint, in its own transaction: event, delivery, wake-up job. */
  event_insert: Timing;
}

/** Everything timed `samples` times at one state of the tables; leaves no pending work behind. */
async function measureOnce(app: App, companyId: number, samples: number): Promise<Measures> {
  const { jobs, db } = app.deps;
  const claimNothingDue = await timeEach(samples, () => jobs.runDue(1));
  const enqueueSamples: number[] = [];
  // A real kind whose handler does almost nothing here (no schedule is due): the claim and the
  // finish are what is timed, not a handler's work.
  const claimAndRun = await timeEach(samples, async () => {
    const started = performance.now();
    await jobs.enqueue(db, 'pay-schedules.due', { once: true });
    enqueueSamples.push(performance.now() - started);
    if ((await jobs.runDue(1)) !== 1) throw new Error('the job just enqueued was not claimed');
  });
  const eventInsert = await timeEach(samples, (i) =>
    db.transaction((tx) =>
      recordEvents(tx, [{ companyId, type: 'paystub.paid', data: { ...EVENT_DATA, reference: `PS-HISTORY-${Date.now()}-${i}` } }]),
    ),
  );
  // The recorded events' deliveries and wake-up jobs would be sent by a job loop; none runs here.
  await db.execute(sql`UPDATE webhook_deliveries SET status = 'delivered', delivered_at = now() WHERE status = 'pending'`);
  await db.execute(sql`UPDATE jobs SET done_at = now() WHERE kind = 'webhooks.deliver' AND done_at IS NULL`);
  return {
    load: loadAverage(),
    claim_nothing_due: claimNothingDue,
    enqueue: summarize(enqueueSamples),
    claim_and_run: claimAndRun,
    event_insert: eventInsert,
  };
}

/**
 * `JOBS` finished jobs (one in twenty failed for good) and `EVENTS` events of `companyId`, each
 * delivered once to `endpointId`, their times spread evenly over the last HISTORY_DAYS days; and
 * WAITING jobs due tomorrow.
 */
async function seedHistory(db: Db, companyId: number, endpointId: number): Promise<void> {
  for (let from = 1; from <= JOBS; from += BATCH) {
    const to = Math.min(JOBS, from + BATCH - 1);
    await db.execute(
      sql`INSERT INTO jobs (kind, payload, run_at, attempts, created_at, done_at, failed_at, last_error)
          SELECT CASE g % 3 WHEN 0 THEN 'webhooks.deliver' WHEN 1 THEN 'mail.deliver' ELSE 'payroll-runs.settle' END,
                 jsonb_build_object('n', g), t, 1, t,
                 CASE WHEN g % 20 <> 0 THEN t + interval '1 second' END,
                 CASE WHEN g % 20 = 0 THEN t + interval '1 second' END,
                 CASE WHEN g % 20 = 0 THEN 'bench: failed for good' END
          FROM (SELECT g, now() - (g::float8 / ${JOBS}) * make_interval(days => ${HISTORY_DAYS}) AS t
                FROM generate_series(${from}::int, ${to}::int) AS g) AS s`,
    );
  }
  await db.execute(
    sql`INSERT INTO jobs (kind, payload, run_at) SELECT 'mail.deliver', jsonb_build_object('n', g), now() + interval '1 day'
        FROM generate_series(1, ${WAITING}::int) AS g`,
  );
  const body = JSON.stringify({ type: 'paystub.paid', data: EVENT_DATA });
  for (let from = 1; from <= EVENTS; from += BATCH) {
    const to = Math.min(EVENTS, from + BATCH - 1);
    const ages = sql`SELECT g, now() - (g::float8 / ${EVENTS}) * make_interval(days => ${HISTORY_DAYS}) AS t
                     FROM generate_series(${from}::int, ${to}::int) AS g`;
    await db.execute(
      sql`INSERT INTO webhook_events (id, company_id, type, body, created_at)
          SELECT 'evt_history_' || g, ${companyId}, 'paystub.paid', ${body}, t FROM (${ages}) AS s`,
    );
    await db.execute(
      sql`INSERT INTO webhook_deliveries (endpoint_id, event_id, status, attempts, last_status_code, last_attempt_at, delivered_at, created_at)
          SELECT ${endpointId}, 'evt_history_' || g, 'delivered', 1, 200, t, t, t FROM (${ages}) AS s`,
    );
  }
}

/** `payroll prune` with its defaults, run by the compiled CLI on `databaseUrl` as cron would; what it printed. */
async function pruneCli(databaseUrl: string): Promise<{ deleted: { jobs: number; webhook_events: number } }> {
  const main = path.join(path.dirname(await compiled('src/server.ts')), 'cli', 'main.js');
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PAYMENT_PROVIDER: 'sandbox',
    WEBHOOK_SECRET_KEY: crypto.randomBytes(32).toString('base64'),
    LOG_LEVEL: 'silent',
  };
  const script = 'const { main } = await import(process.argv[1]); process.exitCode = await main(process.argv.slice(2));';
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', script, main, 'prune'],
      { env, timeout: 1_800_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`payroll prune: ${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout))),
    );
  });
}

async function counts(db: Db): Promise<{ jobs: number; webhook_events: number; webhook_deliveries: number }> {
  const [row] = await queryRows<{ jobs: number; webhook_events: number; webhook_deliveries: number }>(
    db,
    sql`SELECT (SELECT count(*) FROM jobs)::int AS jobs, (SELECT count(*) FROM webhook_events)::int AS webhook_events,
               (SELECT count(*) FROM webhook_deliveries)::int AS webhook_deliveries`,
  );
  return row;
}

/** After a few untimed rounds: the first statements of a connection plan them and warm its caches. */
async function measure(app: App, companyId: number): Promise<Measures> {
  await measureOnce(app, companyId, 20);
  return measureOnce(app, companyId, SAMPLES);
}

function reportMeasures(ctx: BenchContext, state: string, measures: Measures, before?: Measures): void {
  for (const key of ['claim_nothing_due', 'enqueue', 'claim_and_run', 'event_insert'] as const) {
    const timing = measures[key];
    const against = before ? `, ${(timing.median / before[key].median).toFixed(2)}× empty` : '';
    ctx.report({
      scenario: `history: ${key.replaceAll('_', ' ')}, ${state}`,
      rate: 1000 / timing.median,
      unit: 'ops/s',
      p99Ms: Number(timing.p99.toFixed(2)),
      note: `${formatMs(timing)}${against}; load ${measures.load}`,
    });
  }
}

const scenario: Scenario = {
  name: 'history',
  order: 93,
  async run(ctx) {
    const scratch = await scratchDatabase('history');
    const config = loadConfig(
      {},
      {
        DATABASE_URL: scratch.url,
        PAYMENT_PROVIDER: 'sandbox',
        WEBHOOK_SECRET_KEY: crypto.randomBytes(32).toString('base64'),
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      },
    );
    const app = await buildApp({ config, database: scratch.database, logLevel: 'silent' });
    try {
      const { db } = scratch.database;
      const company = await db.transaction(async (tx) => {
        const created = await setupCompany(tx, { name: 'History Company', domain: 'history.bench.test', plan: 'enterprise' });
        return { id: created.id, token: (await issueToken(tx, created.id, ['all'])).token };
      });
      // The endpoint through the API, as a client makes it; nothing listens there: no job loop sends.
      const created = await app.inject({
        method: 'POST',
        url: '/api/webhook-endpoints',
        headers: { authorization: `Bearer ${company.token}` },
        payload: { url: 'http://127.0.0.1:9/hook', events: ['*'], description: 'history bench' },
      });
      if (created.statusCode !== 201) throw new Error(`POST /api/webhook-endpoints: ${created.statusCode} ${created.body}`);
      const endpointId = (created.json() as { endpoint: { id: number } }).endpoint.id;

      const empty = await measure(app, company.id);
      reportMeasures(ctx, 'empty tables', empty);

      const seeding = await timed(() => seedHistory(db, company.id, endpointId));
      const vacuum = await timed(() => scratch.database.execScript('VACUUM ANALYZE jobs, webhook_events, webhook_deliveries'));
      const seeded = await counts(db);
      const full = await measure(app, company.id);
      reportMeasures(ctx, `${(JOBS / 1e6).toLocaleString('en')}M jobs and events`, full, empty);

      const prune = await timed(() => pruneCli(scratch.url));
      const pruned = await counts(db);
      const deleted = prune.value.deleted.jobs + prune.value.deleted.webhook_events;
      ctx.report({
        scenario: `history: payroll prune (defaults) after ${(JOBS / 1e6).toLocaleString('en')}M jobs and events`,
        rate: deleted / prune.seconds,
        unit: 'rows/s',
        note: `${prune.seconds.toFixed(1)} s for ${prune.value.deleted.jobs} jobs and ${prune.value.deleted.webhook_events} events (with their deliveries), process start included; load ${loadAverage()}`,
      });
      await scratch.database.execScript('VACUUM ANALYZE jobs, webhook_events, webhook_deliveries');
      const after = await measure(app, company.id);
      reportMeasures(ctx, 'after prune', after, empty);

      writeResults('history', {
        at: new Date().toISOString(),
        seeded: {
          jobs: JOBS,
          waiting_jobs: WAITING,
          events: EVENTS,
          days: HISTORY_DAYS,
          seconds: seeding.seconds,
          vacuum_seconds: vacuum.seconds,
        },
        counts: { seeded, pruned },
        samples_per_measure: SAMPLES,
        measures: { empty, full, after_prune: after },
        prune: { seconds: prune.seconds, deleted: prune.value.deleted, load: loadAverage() },
      });
    } finally {
      await app.close();
      await scratch.drop();
    }
  },
};

export default scenario;
