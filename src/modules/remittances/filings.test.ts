// Remittance filings and deadlines through HTTP (docs/compliance.md, "Filings and deadlines"): a
// filing with its receipt reference turns a schedule filed or filed_late (days late, difference);
// unfiled ones are due or overdue; the calendar lists every due date of a range; the daily check
// announces remittance.due_soon and remittance.overdue once each (webhook events and e-mails).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { expectTenantIsolation } from '../../../test/helpers/isolation.js';
import { buildRemittanceWorld, type RemittanceWorld } from '../../../test/helpers/remittances.js';
import { queryRows, sql } from '../../db/client.js';
import { createFilingsService } from './filings.service.js';

let ctx: TestContext;
let world: RemittanceWorld;

beforeAll(async () => {
  ctx = await createTestApp({ sandboxTransferDelaySeconds: 0 });
  world = await buildRemittanceWorld(ctx.app, ctx.db);
  const hook = await as(ctx.app, world.company).post('/api/webhook-endpoints', {
    url: 'https://93.184.215.14/deadlines',
    events: ['remittance.due_soon', 'remittance.overdue'],
  });
  expect(hook.statusCode, hook.body).toBe(201);
}, 240_000);
afterAll(() => ctx?.close());

const api = () => as(ctx.app, world.company);
const march = async () => (await api().get('/api/remittances?month=2026-03')).json().schedules;

describe('POST /api/remittances/filings', () => {
  it('refuses bad input with every message, a future payment, and a second filing of a schedule', async () => {
    const bad = await api().post('/api/remittances/filings', { kind: 'vat', month: '2026-13', amount: '-1', paid_on: 'soon' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().error).sort()).toEqual(['amount', 'kind', 'month', 'paid_on', 'receipt_reference']);
    const noState = await api().post('/api/remittances/filings', {
      kind: 'paye',
      month: '2026-03',
      amount: '1.00',
      paid_on: '2026-04-01',
      receipt_reference: 'R',
    });
    expect(Object.keys(noState.json().error)).toEqual(['authority']);
    const future = await api().post('/api/remittances/filings', {
      kind: 'nsitf',
      month: '2026-03',
      amount: '1.00',
      paid_on: '2099-01-01',
      receipt_reference: 'R',
    });
    expect(Object.keys(future.json().error)).toEqual(['paid_on']);
  });

  it('unfiled schedules are overdue; a filing makes one filed or filed_late with the difference', async () => {
    const before = await march();
    const lagos = before.paye.find((e: { state: string }) => e.state === 'LA');
    expect(lagos).toMatchObject({ status: 'overdue', filing: null, due_date: '2026-04-10' });
    expect(lagos.days_late).toBeGreaterThan(0);

    const onTime = await api().post('/api/remittances/filings', {
      kind: 'paye',
      month: '2026-03',
      authority: 'la',
      amount: String(lagos.amount),
      paid_on: '2026-04-09',
      receipt_reference: 'LIRS-RCPT-001',
    });
    expect(onTime.statusCode, onTime.body).toBe(201);
    expect(onTime.json().filing).toMatchObject({ kind: 'paye', authority: 'LA', amount: lagos.amount, receipt_reference: 'LIRS-RCPT-001' });
    const again = await api().post('/api/remittances/filings', {
      kind: 'paye',
      month: '2026-03',
      authority: 'LA',
      amount: '1.00',
      paid_on: '2026-04-09',
      receipt_reference: 'X',
    });
    expect(again.statusCode).toBe(409);

    const nsitf = before.nsitf;
    const late = await api().post('/api/remittances/filings', {
      kind: 'nsitf',
      month: '2026-03',
      amount: (nsitf.amount - 10).toFixed(2),
      paid_on: '2026-04-20',
      receipt_reference: 'NSITF-9',
    });
    expect(late.statusCode, late.body).toBe(201);

    const after = await march();
    expect(after.paye.find((e: { state: string }) => e.state === 'LA')).toMatchObject({
      status: 'filed',
      days_late: 0,
      filing: { paid_on: '2026-04-09', receipt_reference: 'LIRS-RCPT-001', amount: lagos.amount, difference: 0 },
    });
    expect(after.nsitf).toMatchObject({
      status: 'filed_late',
      days_late: 4,
      filing: { paid_on: '2026-04-20', receipt_reference: 'NSITF-9', difference: -10 },
    });
  });
});

describe('GET /api/remittances/calendar', () => {
  it('lists every due date of the range in order, with status and amount', async () => {
    const res = await api().get('/api/remittances/calendar?from=2026-04-01&to=2026-04-30');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as { due_date: string; kind: string; month: string; authority: string | null; status: string }[];
    expect(data.length).toBeGreaterThan(3);
    expect(data.map((e) => e.due_date)).toEqual([...data.map((e) => e.due_date)].sort());
    expect(data.every((e) => e.due_date >= '2026-04-01' && e.due_date <= '2026-04-30')).toBe(true);
    expect(data.find((e) => e.kind === 'paye' && e.authority === 'LA')).toMatchObject({ month: '2026-03', status: 'filed' });
    expect(data.find((e) => e.kind === 'nsitf')).toMatchObject({ due_date: '2026-04-16', status: 'filed_late' });
    expect(data.filter((e) => e.kind === 'pension').every((e) => e.status === 'overdue')).toBe(true);

    const bad = await api().get('/api/remittances/calendar?from=2026-04-01&to=2027-06-01');
    expect(bad.statusCode).toBe(422);
    expect((await api().get('/api/remittances/calendar?from=2026-04-31&to=2026-05-01')).statusCode).toBe(422);
    expect((await api().get('/api/remittances/calendar')).statusCode).toBe(422);
  });
});

describe('GET /api/remittances/calendar: the yearly dates', () => {
  it('lists the annual return per state (31 January) and the ITF levy (1 April) of the year before, as the annual endpoints figure them', async () => {
    const res = await api().get('/api/remittances/calendar?from=2027-01-01&to=2027-04-30');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as {
      due_date: string;
      kind: string;
      month: string;
      authority: string | null;
      amount: number;
      status: null;
    }[];
    const returns = data.filter((e) => e.kind === 'annual_return');
    expect(returns.length).toBeGreaterThan(0);
    for (const entry of returns) {
      expect(entry).toMatchObject({ due_date: '2027-01-31', month: '2026', status: null, days_late: 0, filing: null });
      const annual = (await api().get(`/api/annual-returns/2026?state=${entry.authority}`)).json();
      expect(entry.amount).toBe(annual.totals.tax_deducted);
    }
    const itf = (await api().get('/api/annual-returns/2026/itf')).json();
    const levy = data.filter((e) => e.kind === 'itf');
    expect(itf.eligible).toBe(true); // the world pays 7 employees in 2026
    expect(levy).toEqual([expect.objectContaining({ due_date: '2027-04-01', month: '2026', amount: itf.amount, status: null })]);
    expect(data.map((e) => e.due_date)).toEqual([...data.map((e) => e.due_date)].sort());
    // A range without 31 January or 1 April has none; the monthly dates of 2026 are unchanged by them.
    const april = (await api().get('/api/remittances/calendar?from=2026-04-01&to=2026-04-30')).json().data as { kind: string }[];
    expect(april.some((e) => e.kind === 'annual_return' || e.kind === 'itf')).toBe(false);
  });
});

describe('the daily deadline check', () => {
  const checkOn = (iso: string) =>
    createFilingsService({ db: ctx.db, mailer: ctx.app.deps.mailer, now: () => new Date(iso) }).checkDeadlines();
  const events = () =>
    queryRows<{ type: string; kind: string; authority: string | null }>(
      ctx.db,
      sql`SELECT type, body::jsonb->'data'->>'kind' AS kind, body::jsonb->'data'->>'authority' AS authority FROM webhook_events
          WHERE company_id = ${world.company.id} AND type LIKE 'remittance.%' ORDER BY type, kind, authority`,
    );

  it('announces due_soon 3 working days ahead and overdue the day after, each once', async () => {
    // 14 April 2026: March's pension (due 8 April) is overdue; NHF (due 27 April) is not yet close.
    // March's Lagos PAYE and NSITF are filed: nothing to announce.
    const first = await checkOn('2026-04-14T09:00:00Z');
    expect(first.errors).toEqual([]);
    expect(first.notices).toBeGreaterThan(0);
    const once = await events();
    expect(once.every((e) => !(e.kind === 'paye' && e.authority === 'LA') && e.kind !== 'nsitf')).toBe(true);
    expect(once.filter((e) => e.kind === 'pension').every((e) => e.type === 'remittance.overdue')).toBe(true);
    // The same day again, and the next day: nothing new.
    expect((await checkOn('2026-04-14T15:00:00Z')).notices).toBe(0);
    expect((await checkOn('2026-04-15T09:00:00Z')).notices).toBe(0);
    expect(await events()).toEqual(once);
    // 22 April: NHF (due 27 April) is due soon.
    await checkOn('2026-04-22T09:00:00Z');
    const later = await events();
    expect(later.filter((e) => e.kind === 'nhf').map((e) => e.type)).toEqual(['remittance.due_soon']);
    const mails = await queryRows<{ subject: string }>(
      ctx.db,
      sql`SELECT subject FROM outbox WHERE company_id = ${world.company.id} AND subject LIKE 'Remittances%' ORDER BY id`,
    );
    expect(mails.map((m) => m.subject)).toEqual(['Remittances overdue', 'Remittances due soon']);
  });
});

describe('tenant isolation', () => {
  it("another company's filings and calendar are out of reach", async () => {
    const other = await createCompany(ctx.db, { name: 'Nosy Ltd' });
    await expectTenantIsolation(
      ctx.app,
      other,
      world.company,
      [
        { method: 'GET', url: `/api/remittances/calendar?from=2026-04-01&to=2026-04-30&company_id=${world.company.id}` },
        {
          method: 'POST',
          url: '/api/remittances/filings',
          payload: {
            company_id: world.company.id,
            kind: 'nhf',
            month: '2026-03',
            amount: '1',
            paid_on: '2026-04-01',
            receipt_reference: 'R',
          },
        },
      ],
      { tables: ['remittance_filings'] },
    );
  });
});
