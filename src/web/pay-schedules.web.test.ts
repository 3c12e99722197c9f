// Console → Pay schedules over inject: create (post/redirect/get, the next 3 periods with payment
// and creation dates as the API shows them), a refused form re-rendered with the service's message
// and nothing written, edit, deactivate after a confirmation page, the audit events of each, and
// another company's schedule out of reach.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../test/helpers/factories.js';
import { as } from '../../test/helpers/http.js';
import { createAdmin, signIn, type WebClient } from '../../test/helpers/web.js';
import { queryRows } from '../db/client.js';

let ctx: TestContext;
let company: TestCompany;
let admin: WebClient;
let stranger: WebClient;

beforeAll(async () => {
  ctx = await createTestApp();
  company = await createCompany(ctx.db, { name: 'Schedules Ltd' });
  admin = await signIn(ctx.app, (await createAdmin(ctx.db, company.id)).email);
  const other = await createCompany(ctx.db, { name: 'Other Ltd' });
  stranger = await signIn(ctx.app, (await createAdmin(ctx.db, other.id)).email);
}, 120_000);
afterAll(() => ctx?.close());

const apiList = async () =>
  (await as(ctx.app, company).get('/api/pay-schedules')).json().data as {
    id: number;
    name: string;
    active: boolean;
    upcoming: { payment_date: string; creation_date: string }[];
  }[];

const actions = async () =>
  (
    await queryRows<{ action: string; actor_type: string }>(
      ctx.db,
      sql`SELECT action, actor_type FROM audit_events WHERE company_id = ${company.id} AND target_type = 'pay_schedule' ORDER BY id`,
    )
  ).map((row) => `${row.actor_type}:${row.action}`);

describe('console pay schedules', () => {
  it('creates a schedule (303 then the list with its next 3 periods) and audits it as the signed-in person', async () => {
    const res = await admin.post('/console/pay-schedules', {
      name: 'Monthly salaries',
      frequency: 'monthly',
      pay_day: 'last_working_day',
      first_period_start: '2031-01-01',
      create_days_before: '5',
    });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(303);
    expect(res.headers.location).toBe('/console/pay-schedules?done=created');
    const [schedule] = await apiList();
    expect(schedule.name).toBe('Monthly salaries');
    const list = await admin.get(res.headers.location as string);
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('Pay schedule created.');
    expect(list.body).toContain(`data-upcoming="${schedule.id}"`);
    expect(schedule.upcoming).toHaveLength(3);
    for (const period of schedule.upcoming) {
      expect(list.body).toContain(period.payment_date);
      expect(list.body).toContain(period.creation_date);
    }
    expect(await actions()).toEqual(['console_user:pay_schedule.created']);
  });

  it('re-renders a refused form with the message, writing nothing', async () => {
    const res = await admin.post('/console/pay-schedules', {
      name: 'Bad',
      frequency: 'daily',
      pay_day: '1',
      first_period_start: '2031-01-01',
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('role="alert"');
    expect(res.body).toContain('value="Bad"');
    expect(await apiList()).toHaveLength(1);
  });

  it('edits, then deactivates after a confirmation page', async () => {
    const [schedule] = await apiList();
    const edit = await admin.get(`/console/pay-schedules/${schedule.id}/edit`);
    expect(edit.statusCode).toBe(200);
    expect(edit.body).toContain('value="Monthly salaries"');
    const saved = await admin.post(`/console/pay-schedules/${schedule.id}`, {
      name: 'Salaries',
      frequency: 'monthly',
      pay_day: '25',
      first_period_start: '2031-01-01',
      create_days_before: '3',
    });
    expect(saved.statusCode, saved.body.slice(0, 500)).toBe(303);
    expect((await apiList())[0].name).toBe('Salaries');
    const confirm = await admin.get(`/console/pay-schedules/${schedule.id}/deactivate`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain(`action="/console/pay-schedules/${schedule.id}/deactivate"`);
    expect((await apiList())[0].active).toBe(true);
    const done = await admin.post(`/console/pay-schedules/${schedule.id}/deactivate`, {});
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/console/pay-schedules?done=deactivated');
    expect((await apiList())[0].active).toBe(false);
    const inactive = await admin.get('/console/pay-schedules');
    expect(inactive.body).toContain(`action="/console/pay-schedules/${schedule.id}/activate"`);
    expect(inactive.body).not.toContain(`/console/pay-schedules/${schedule.id}/deactivate`);
    const activated = await admin.post(`/console/pay-schedules/${schedule.id}/activate`, {});
    expect(activated.statusCode).toBe(303);
    expect(activated.headers.location).toBe('/console/pay-schedules?done=activated');
    expect((await apiList())[0].active).toBe(true);
    expect((await admin.get('/console/pay-schedules?done=activated')).body).toContain('Pay schedule activated');
    expect(await actions()).toEqual([
      'console_user:pay_schedule.created',
      'console_user:pay_schedule.updated',
      'console_user:pay_schedule.updated',
      'console_user:pay_schedule.updated',
    ]);
  });

  it("does not reach another company's schedule", async () => {
    const [schedule] = await apiList();
    expect((await stranger.get(`/console/pay-schedules/${schedule.id}/edit`)).statusCode).toBe(404);
    expect((await stranger.post(`/console/pay-schedules/${schedule.id}/deactivate`, {})).statusCode).toBe(404);
    expect((await stranger.post(`/console/pay-schedules/${schedule.id}/activate`, {})).statusCode).toBe(404);
    const list = await stranger.get('/console/pay-schedules');
    expect(list.body).not.toContain('Salaries');
  });
});
