// The two tenants of the isolation test. Company A (the attacker, with a child) and an unrelated
// company B (the victim) whose resources are created through the real API as B: users, a payroll
// run, a custom contribution, an invoice, a paid wallet top-up and a child company. A "ghost"
// victim has the same shape with ids and e-mails that exist nowhere: a request naming B's
// resource must be answered exactly like the same request naming the ghost's (no existence oracle).
import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { App } from '../../src/app.js';
import { type Executor, queryRows, sql } from '../../src/db/client.js';
import { companyBody } from '../helpers/companies.js';
import { invoiceBody } from '../helpers/companies-invoices.js';
import { createCompany, createUsers, type TestCompany } from '../helpers/factories.js';
import { as } from '../helpers/http.js';
import { paystubItem } from '../helpers/payroll.js';
import { allowRedirectHosts, makeVerifyJobsDue } from '../helpers/wallet.js';
import type { Json } from './probes.js';

/** What a probe may name of the victim. Scope ids stay real in the ghost; resource ids do not. */
export interface Victim {
  /** B and B's child as `company_id` scopes (the ghost keeps them: company existence is public by design, docs/reference.md, "Common rules"). */
  company: number;
  child: number;
  /** B and B's child as the resource of a companies route (C3-C6). */
  companyRes: number;
  childRes: number;
  userId: number;
  userEmail: string;
  personalEmail: string;
  domain: string;
  redirectHost: string;
  contributionId: number;
  invoiceTx: string;
  walletRef: string;
  runTx: string;
  /** One paystub of B's run (its payslip). */
  paystubId: number;
  /** B's webhook endpoint and one of its deliveries. */
  webhookId: number;
  deliveryId: number;
  /** A pay item type of B's own (and one of B's child): its code; the ghost's exists nowhere. */
  payItemTypeCode: string;
  /** Prefix of the Idempotency-Keys B used (`<prefix>-<route name>`). */
  idemKey: string;
  /** A loan of B's user (docs/payroll.md, "Loans and salary advances"). */
  loanId: number;
  /** B's pay schedule (docs/payroll-runs.md, "Pay schedules"). */
  payScheduleId: number;
}

/** The attacker's own things, used where a request mixes A's resource with B's reference. */
export interface Attacker {
  company: TestCompany;
  child: number;
  /** A's child with its own token (the upward check: a child never acts for its parent). */
  childCompany: TestCompany;
  userId: number;
  userEmail: string;
  domain: string;
  contributionId: number;
  redirectHost: string;
}

export interface World {
  a: Attacker;
  b: TestCompany;
  victim: Victim;
  ghost: Victim;
  /** Strings that identify B's data; none may appear in an answer to A unless A sent it. */
  secrets: string[];
  /** Tokens of unrelated companies with a single scope each (route-scope 403 checks). */
  scoped: { walletBalanceOnly: TestCompany; usersIndexOnly: TestCompany };
  /** B's POST requests sent with an Idempotency-Key, by route name: A replays them with B's keys. */
  replays: Record<string, { url: string; body: object }>;
}

const reverseSuffix = (id: string) => {
  const cut = id.lastIndexOf('-');
  return `${id.slice(0, cut + 1)}${[...id.slice(cut + 1)].reverse().join('')}`;
};

async function call(app: App, who: TestCompany, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object, key?: string) {
  const res = await as(app, who).request(method, url, payload, key ? { headers: { 'idempotency-key': key } } : {});
  expect(res.statusCode, `set-up ${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json();
}

export async function buildWorld(app: App, db: Executor): Promise<World> {
  const tag = crypto.randomBytes(3).toString('hex');
  const a = await createCompany(db, { name: `Attacker ${tag}` });
  const aChild = await createCompany(db, { name: `Attacker Child ${tag}`, createdBy: a.id });
  const b = await createCompany(db, { name: `Victim ${tag}` });
  const scoped = {
    walletBalanceOnly: await createCompany(db, { scopes: ['wallet.balance'] }),
    usersIndexOnly: await createCompany(db, { scopes: ['users.index'] }),
  };
  const [aUser] = await createUsers(db, a.id, [{ firstName: 'Alice', lastName: `Attacker${tag}` }]);
  const bUsers = await createUsers(db, b.id, [
    { firstName: 'Bartholomew', lastName: `Victimson${tag}` },
    { firstName: 'Beatrix', lastName: `Victimdottir${tag}` },
  ]);
  await allowRedirectHosts(db, a.id, [`a${tag}.example`]);
  await allowRedirectHosts(db, b.id, [`b${tag}.example`]);

  // A's own custom contribution (S9 with B's e-mails needs one of A's to update).
  const aContribution = await call(app, a, 'POST', `/api/custom-contributions/${a.id}`, {
    name: `A plan ${tag}`,
    type: 'amount',
    apply_to: 'gross_pay',
    responsibility: 'employee',
    employee_value: 100,
    frequency: 'per_paystub',
  });

  // B's resources, through B's own API; every POST carries an Idempotency-Key that A later replays.
  const idemKey = `idem-${tag}-victim`;
  const replays: World['replays'] = {
    'custom-contributions.store': {
      url: `/api/custom-contributions/${b.id}`,
      body: {
        name: `Victim health plan ${tag}`,
        type: 'percentage',
        apply_to: 'gross_pay',
        responsibility: 'both',
        employee_value: 2,
        employer_value: 3,
        frequency: 'per_paystub',
        users: [bUsers[0].email],
      },
    },
    'paystubs.store': { url: '/api/paystubs', body: { paystubs: bUsers.map((user) => paystubItem(user.id)) } },
    'invoices.store': {
      url: '/api/invoices',
      body: invoiceBody(bUsers[0].email, { description: `Victim claim ${tag}`, provider_name: `Victim Clinic ${tag}` }),
    },
    'wallet.top-up': {
      url: '/api/wallet/top-up',
      body: { amount: 2500, customer_email: `payer.${tag}@victim.test`, redirect_url: `https://b${tag}.example/done` },
    },
    'companies.store': { url: '/api/companies', body: companyBody({ name: `Victim Child ${tag}` }) },
  };
  const made: Record<string, Json> = {};
  for (const [route, { url, body }] of Object.entries(replays)) made[route] = await call(app, b, 'POST', url, body, `${idemKey}-${route}`);
  // A second key per route, whose stored answer is one of B's failures (A reuses it with its own body).
  const failing: Record<string, { url: string; body: object }> = {
    'custom-contributions.store': {
      url: `/api/custom-contributions/${b.id}`,
      body: { ...replays['custom-contributions.store'].body, name: 'Other', users: ['nobody@nowhere.test'] },
    },
    'paystubs.store': { url: '/api/paystubs', body: { paystubs: [{ id: 'nobody' }] } },
    'invoices.store': { url: '/api/invoices', body: { ...replays['invoices.store'].body, user_email: 'nobody@nowhere.test' } },
    'wallet.top-up': {
      url: '/api/wallet/top-up',
      body: { amount: 500, customer_email: 'nobody@nowhere.test', redirect_url: 'https://nowhere.example/' },
    },
    'companies.store': { url: '/api/companies', body: {} },
  };
  for (const [route, { url, body }] of Object.entries(failing)) {
    await app.inject({ method: 'POST', url, headers: { ...b.auth, 'idempotency-key': `${idemKey}-${route}-second` }, payload: body });
  }
  const stored = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM idempotency_keys WHERE company_id = ${b.id} AND status_code IS NOT NULL AND key LIKE ${`${idemKey}-%`}`,
  );
  expect(stored[0].n, "B's stored Idempotency-Keys").toBe(Object.keys(replays).length + Object.keys(failing).length);
  const bContribution = made['custom-contributions.store'];
  const run = made['paystubs.store'];
  expect(run.failed_paystubs).toEqual([]);
  const invoice = made['invoices.store'].invoice;
  const topUp = made['wallet.top-up'];
  const bChild = made['companies.store'].company;
  const paid = await app.inject({
    method: 'POST',
    url: new URL(topUp.checkoutUrl).pathname + new URL(topUp.checkoutUrl).search,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'outcome=success',
  });
  expect(paid.statusCode).toBe(303);
  await makeVerifyJobsDue(db);
  await app.deps.jobs.runDue(100);
  const [{ status }] = await queryRows<{ status: string }>(
    db,
    sql`SELECT status FROM wallet_transactions WHERE reference = ${topUp.transactionReference}`,
  );
  expect(status).toBe('success');
  // B's webhook endpoint (a public IP literal: no DNS, never reached) with one delivery, then disabled
  // so that no job run of the matrix ever tries to send it.
  const hookUrl = `https://93.184.215.14/b-${tag}`;
  const hook = await call(app, b, 'POST', '/api/webhook-endpoints', { url: hookUrl, events: ['*'], description: `Victim hook ${tag}` });
  const hookTest = await call(app, b, 'POST', `/api/webhook-endpoints/${hook.endpoint.id}/test`, {});
  await call(app, b, 'PATCH', `/api/webhook-endpoints/${hook.endpoint.id}`, { disabled: true });
  const [delivery] = await queryRows<{ id: number }>(db, sql`SELECT id FROM webhook_deliveries WHERE event_id = ${hookTest.event_id}`);
  // B's own pay item type, and one of B's child made by B through company_id.
  const payItemType = { code: `victim_${tag}`, name: `Victim allowance ${tag}`, treatment: 'earning', pensionable: true };
  await call(app, b, 'POST', '/api/pay-item-types', payItemType);
  await call(app, b, 'POST', '/api/pay-item-types', {
    ...payItemType,
    code: `victim_child_${tag}`,
    name: `Victim child allowance ${tag}`,
    company_id: bChild.id,
  });

  // A loan of B's first user.
  const loan = await call(app, b, 'POST', `/api/users/${bUsers[0].id}/loans`, {
    kind: 'loan',
    principal: '50000',
    instalment: '5000',
    start_period: '2026-01',
  });

  // B's pay schedule, its first period far ahead (it creates nothing while the matrix runs).
  const schedule = await call(app, b, 'POST', '/api/pay-schedules', {
    name: `Victim schedule ${tag}`,
    frequency: 'monthly',
    pay_day: 'last_working_day',
    first_period_start: '2031-01-01',
  });

  const victim: Victim = {
    company: b.id,
    child: bChild.id,
    companyRes: b.id,
    childRes: bChild.id,
    userId: bUsers[0].id,
    userEmail: bUsers[0].email,
    personalEmail: bUsers[0].personalEmail,
    domain: b.domain,
    redirectHost: `b${tag}.example`,
    contributionId: bContribution.data.id,
    invoiceTx: invoice.transaction_id,
    walletRef: topUp.transactionReference,
    runTx: run.transaction_id,
    paystubId: run.created_paystubs[0].paystub.id,
    webhookId: hook.endpoint.id,
    deliveryId: delivery.id,
    payItemTypeCode: payItemType.code,
    idemKey,
    loanId: loan.loan.id,
    payScheduleId: schedule.pay_schedule.id,
  };
  const ghost: Victim = {
    ...victim,
    companyRes: 99_999_001,
    childRes: 99_999_002,
    userId: 99_999_003,
    userEmail: `nobody.${tag}@ghost${tag}.test`,
    personalEmail: `nobody.${tag}@ghostmail${tag}.test`,
    domain: `ghost${tag}.test`,
    redirectHost: `ghost${tag}.example`,
    contributionId: 99_999_004,
    invoiceTx: reverseSuffix(invoice.transaction_id),
    walletRef: reverseSuffix(topUp.transactionReference),
    runTx: reverseSuffix(run.transaction_id),
    paystubId: 99_999_007,
    webhookId: 99_999_005,
    deliveryId: 99_999_006,
    payItemTypeCode: `ghost_${tag}`,
    idemKey: `idem-${tag}-ghost`,
    loanId: 99_999_008,
    payScheduleId: 99_999_009,
  };
  const [bRow] = await queryRows<{ name: string; code: string }>(db, sql`SELECT name, code FROM companies WHERE id = ${b.id}`);
  const secrets = [
    ...bUsers.flatMap((user) => [user.email, user.personalEmail, user.lastName, user.employeeId, user.uniqueId]),
    bRow.name,
    b.domain,
    bChild.name as string,
    bChild.domain,
    String((replays['companies.store'].body as { personal_email: string }).personal_email),
    bContribution.data.name,
    invoice.transaction_id,
    `Victim claim ${tag}`,
    `Victim Clinic ${tag}`,
    topUp.transactionReference,
    `payer.${tag}@victim.test`,
    run.transaction_id,
    `b${tag}.example`,
    hookUrl,
    `Victim hook ${tag}`,
    hookTest.event_id,
    payItemType.code,
    payItemType.name,
    `victim_child_${tag}`,
    `Victim child allowance ${tag}`,
    ...(bRow.code.length >= 6 ? [bRow.code] : []),
  ];

  return {
    a: {
      company: a,
      child: aChild.id,
      childCompany: aChild,
      userId: aUser.id,
      userEmail: aUser.email,
      domain: a.domain,
      contributionId: aContribution.data.id,
      redirectHost: `a${tag}.example`,
    },
    b,
    victim,
    ghost,
    secrets,
    scoped,
    replays,
  };
}

/**
 * B's data as B sees it through its own API: every list and record the matrix could touch, with
 * the fields that change on any write (updated_at, status, balance, counts).
 */
export async function victimView(app: App, world: World): Promise<Record<string, unknown>> {
  const { b, victim } = world;
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url, headers: b.auth });
    return { status: res.statusCode, body: res.json() };
  };
  return {
    users: await get('/api/users?per_page=1000'),
    childUsers: await get(`/api/users?per_page=1000&company_id=${victim.child}`),
    user: await get(`/api/users/${victim.userId}`),
    paystubs: await get('/api/paystubs?per_page=100'),
    settings: await get(`/api/contribution-settings/${b.id}`),
    childSettings: await get(`/api/contribution-settings/${victim.child}`),
    contributions: await get(`/api/contributions/${b.id}`),
    userContributions: await get(`/api/contributions/user/${victim.userId}`),
    customContributions: await get(`/api/custom-contributions/${b.id}`),
    companies: await get('/api/companies'),
    child: await get(`/api/companies/${victim.child}`),
    invoices: await get('/api/invoices?per_page=100'),
    invoice: await get(`/api/invoices/${victim.invoiceTx}`),
    transaction: await get(`/api/wallet/transaction/status?transaction_reference=${victim.walletRef}`),
    balance: await get('/api/wallet/balance'),
    webhooks: await get('/api/webhook-endpoints?per_page=100'),
    webhook: await get(`/api/webhook-endpoints/${victim.webhookId}`),
    deliveries: await get(`/api/webhook-endpoints/${victim.webhookId}/deliveries`),
    payItemTypes: await get('/api/pay-item-types'),
    childPayItemTypes: await get(`/api/pay-item-types?company_id=${victim.child}`),
    loans: await get('/api/loans?per_page=100'),
    loan: await get(`/api/loans/${victim.loanId}`),
    paySchedules: await get('/api/pay-schedules'),
    paySchedule: await get(`/api/pay-schedules/${victim.payScheduleId}`),
    calendar: await get('/api/remittances/calendar?from=2026-01-01&to=2026-12-31'),
  };
}

/** Written every few seconds whatever the requests do (platform/idempotency-claims.ts: the instance heartbeat). */
const SELF_WRITTEN = ['server_instances'];

/**
 * The last fingerprint taken of each database, per `companies`, with the transaction id horizon
 * read before it: the first transaction id not yet assigned (`pg_current_snapshot()`'s xmax).
 * A row can only change in a transaction that was given an id, so while the horizon stands the
 * rows are as they were and the fingerprint is answered again without reading every table (the
 * catalog walks take one after each of thousands of refused requests). Any write anywhere moves
 * the horizon (on PostgreSQL the ids are the cluster's, so other files' writes do too), and the
 * tables are then read again: a cache that can only miss, never answer stale.
 */
const lastFingerprints = new WeakMap<Executor, Map<string, { horizon: string; fingerprint: Record<string, string> }>>();

/**
 * Every table of the database fingerprinted (row count and md5 of the ordered rows), leaving out
 * only `last_used_at`, which authentication may touch on any request, and the tables the server
 * writes by itself on a clock (SELF_WRITTEN: its instance heartbeat). With `companies`, only the
 * rows of those companies, in the tables that have a company_id column.
 */
export async function databaseFingerprint(db: Executor, companies?: number[]): Promise<Record<string, string>> {
  const [{ horizon }] = await queryRows<{ horizon: string }>(db, sql`SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS horizon`);
  const key = companies ? companies.join(',') : '*';
  let known = lastFingerprints.get(db);
  if (!known) {
    known = new Map();
    lastFingerprints.set(db, known);
  }
  const last = known.get(key);
  if (last?.horizon === horizon) return { ...last.fingerprint };
  const fingerprint = await readFingerprint(db, companies);
  known.set(key, { horizon, fingerprint });
  return { ...fingerprint };
}

async function readFingerprint(db: Executor, companies?: number[]): Promise<Record<string, string>> {
  const tables = await queryRows<{ name: string; scoped: boolean }>(
    db,
    sql`SELECT t.table_name AS name,
               EXISTS (SELECT 1 FROM information_schema.columns c
                        WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name AND c.column_name = 'company_id') AS scoped
          FROM information_schema.tables t
         WHERE t.table_schema = current_schema() AND t.table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const ids = (companies ?? []).map((id) => Number(id)).filter(Number.isInteger);
  const parts = tables
    .filter((table) => (!companies || table.scoped) && !SELF_WRITTEN.includes(table.name))
    .map(({ name }) => {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected table name ${name}`);
      const row = `(to_jsonb(t) - 'last_used_at')::text`;
      const where = companies ? ` WHERE t.company_id IN (${ids.join(',') || 'NULL'})` : '';
      return `SELECT '${name}' AS name, count(*)::text || ':' || coalesce(md5(string_agg(${row}, '|' ORDER BY ${row})), '') AS digest FROM "${name}" t${where}`;
    });
  const rows = await queryRows<{ name: string; digest: string }>(db, sql.raw(parts.join(' UNION ALL ')));
  return Object.fromEntries(rows.map((row) => [row.name, row.digest]));
}
