// POST /api/users/{id}/terminate and /reinstate through HTTP (docs/users.md, "Leavers"): the exit on
// the User object, every refusal, the exited state (is_active, U1's status=exited, activation;
// console sign-in: src/web/leavers.web.test.ts), the scope, the webhook events written with the change, and tenant isolation.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { expectTenantIsolation } from '../../../test/helpers/isolation.js';
import { users, webhookEvents } from '../../db/schema/index.js';
import { lagosDate } from '../../platform/format.js';

let ctx: TestContext;
let acme: TestCompany;
let other: TestCompany;

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db, { name: 'Leavers Ltd' });
  other = await createCompany(ctx.db, { name: 'Elsewhere Ltd' });
}, 180_000);
afterAll(() => ctx?.close());

/** `days` from the Lagos day (negative: before). */
function lagosDay(days: number): string {
  const date = new Date(`${lagosDate()}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
const api = (company: TestCompany = acme) => as(ctx.app, company);
const terminate = (id: number, body: unknown, company?: TestCompany) => api(company).post(`/api/users/${id}/terminate`, body);
const reinstate = (id: number, company?: TestCompany) => api(company).post(`/api/users/${id}/reinstate`, {});
const newUser = async (input: Parameters<typeof createUsers>[2][number] = {}) => (await createUsers(ctx.db, acme.id, [input]))[0];

describe('POST /api/users/{id}/terminate', () => {
  it('records the exit and answers the user with it; U2 shows the same, still active on the exit date itself', async () => {
    const user = await newUser();
    const res = await terminate(user.id, { exit_date: lagosDay(0), reason: 'resignation' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'User terminated successfully.',
      user: { id: user.id, exit_date: lagosDay(0), exit_reason: 'resignation', is_active: true },
    });
    const shown = (await api().get(`/api/users/${user.id}`)).json();
    expect(shown).toMatchObject({ exit_date: lagosDay(0), exit_reason: 'resignation', is_active: true });
    // A user never terminated shows both as null.
    const plain = (await api().get(`/api/users/${(await newUser()).id}`)).json();
    expect([plain.exit_date, plain.exit_reason]).toEqual([null, null]);
  });

  it('from the day after the exit date the user is exited: not active, in U1 status=exited, and cannot be activated', async () => {
    const [left, staying] = [await newUser(), await newUser()];
    expect((await terminate(left.id, { exit_date: lagosDay(-1), reason: 'redundancy' })).json().user.is_active).toBe(false);
    expect((await terminate(staying.id, { exit_date: lagosDay(30), reason: 'retirement' })).statusCode).toBe(200);
    const exited = (await api().get('/api/users?status=exited&per_page=1000')).json();
    const ids = exited.Resources.map((u: { id: number }) => u.id);
    expect(ids).toContain(left.id);
    expect(ids).not.toContain(staying.id);
    expect(exited.totalResults).toBe(ids.length);
    expect(exited.Resources.every((u: { is_active: boolean; exit_date: string }) => !u.is_active && u.exit_date < lagosDay(0))).toBe(true);
    // The full list shows the exit too, and the stored flag is untouched (undoing an exit restores it).
    const all = (await api().get('/api/users?per_page=1000')).json().Resources;
    expect(all.find((u: { id: number }) => u.id === left.id)).toMatchObject({ exit_reason: 'redundancy', is_active: false });
    const [stored] = await ctx.db.select({ isActive: users.isActive }).from(users).where(eq(users.id, left.id));
    expect(stored.isActive).toBe(true);
    expect((await api().patch(`/api/users/${left.id}/activate`)).json()).toEqual({ error: 'Failed to activate user.' });
    const bad = await api().get('/api/users?status=gone');
    expect([bad.statusCode, Object.keys(bad.json().error)]).toEqual([422, ['status']]);
    // Paging past the end still counts the filter's users.
    const past = (await api().get('/api/users?status=exited&page=500&per_page=10')).json();
    expect([past.Resources, past.totalResults]).toEqual([[], exited.totalResults]);
  });

  it.each([
    ['nothing', {}, { exit_date: ['The exit date field is required.'], reason: ['The reason field is required.'] }],
    ['an unknown reason', { exit_date: '2026-03-31', reason: 'fired' }, { reason: ['The selected reason is invalid.'] }],
    ['a malformed date', { exit_date: '31/03/2026', reason: 'other' }, { exit_date: ['The exit date field must match the format Y-m-d.'] }],
    [
      'a date that does not exist',
      { exit_date: '2026-02-30', reason: 'other' },
      { exit_date: ['The exit date field must be a valid date.'] },
    ],
    [
      'an exit before the start date',
      { exit_date: '2024-01-14', reason: 'dismissal' },
      { exit_date: ["The exit date must not be before the user's start date (2024-01-15)."] },
    ],
    [
      'final_pay that is not an object with items',
      { exit_date: '2026-03-31', reason: 'other', final_pay: 'severance' },
      { final_pay: ['The final pay field must be an object: {items: [{type, amount, …}], payment_date?}.'] },
    ],
    [
      'final_pay without items (checked in the same transaction: the exit is rolled back)',
      { exit_date: '2026-03-31', reason: 'other', final_pay: { items: [] } },
      { 'final_pay.items': ['An off-cycle run needs users: [{user_id, items: [...]}], each with at least one item.'] },
    ],
    [
      'final_pay with an unknown item type and a bad payment date',
      { exit_date: '2026-03-31', reason: 'other', final_pay: { items: [{ type: 'golden_parachute', amount: 10 }], payment_date: 'soon' } },
      { 'final_pay.payment_date': ['The payment date field must be a valid date in the format YYYY-MM-DD.'] },
    ],
    ['an unknown field', { exit_date: '2026-03-31', reason: 'other', notice: 'x' }, { notice: ['The notice field is not allowed.'] }],
  ])('422 for %s, nothing written', async (_label, body, error) => {
    const user = await newUser();
    const res = await terminate(user.id, body);
    expect([res.statusCode, res.json()]).toEqual([422, { error }]);
    const [row] = await ctx.db.select({ exitDate: users.exitDate }).from(users).where(eq(users.id, user.id));
    expect(row.exitDate).toBeNull();
  });

  it('U4 cannot move the start date past a recorded exit (422), so pay always counts from one to the other', async () => {
    const user = await newUser();
    await terminate(user.id, { exit_date: '2026-03-20', reason: 'other' });
    const res = await api().put(`/api/users/${user.id}`, { start_date: '2026-03-21' });
    expect([res.statusCode, res.json()]).toEqual([
      422,
      { error: { start_date: ["The start date must not be after the user's exit date (2026-03-20)."] } },
    ]);
    expect((await api().put(`/api/users/${user.id}`, { start_date: '2026-03-20' })).statusCode).toBe(200);
  });

  it('the start date itself is a valid exit date (one day employed)', async () => {
    const res = await terminate((await newUser()).id, { exit_date: '2024-01-15', reason: 'end_of_contract' });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('422 for a user already terminated (the first exit stays); 404 for a deleted user and for another company’s', async () => {
    const user = await newUser();
    expect((await terminate(user.id, { exit_date: '2026-05-31', reason: 'resignation' })).statusCode).toBe(200);
    const again = await terminate(user.id, { exit_date: '2026-06-30', reason: 'dismissal' });
    expect([again.statusCode, again.json()]).toEqual([
      422,
      {
        error: { exit_date: ['The user has already been terminated (exit date 2026-05-31); reinstate them first to record another exit.'] },
      },
    ]);
    expect((await api().get(`/api/users/${user.id}`)).json()).toMatchObject({ exit_date: '2026-05-31', exit_reason: 'resignation' });
    const deleted = await newUser();
    expect((await api().delete(`/api/users/${deleted.id}`)).statusCode).toBe(200);
    const gone = await terminate(deleted.id, { exit_date: '2026-05-31', reason: 'resignation' });
    expect([gone.statusCode, gone.json()]).toEqual([404, { error: 'User not found.' }]);
    const [theirs] = await createUsers(ctx.db, other.id, [{}]);
    const foreign = await terminate(theirs.id, { exit_date: '2026-05-31', reason: 'resignation' });
    expect([foreign.statusCode, foreign.json()]).toEqual([404, { error: 'User not found.' }]);
  });

  it("refuses the company's last active super-admin, and accepts one when another stays", async () => {
    const company = await createCompany(ctx.db, { name: 'One Boss Ltd' });
    const [boss] = await createUsers(ctx.db, company.id, [{ roles: ['super-admin'] }]);
    const res = await terminate(boss.id, { exit_date: '2026-05-31', reason: 'retirement' }, company);
    expect([res.statusCode, res.json().error]).toEqual([
      422,
      { user: ["The company's last active super-admin cannot be terminated; give another user the super-admin role first."] },
    ]);
    await createUsers(ctx.db, company.id, [{ roles: ['super-admin'] }]);
    expect((await terminate(boss.id, { exit_date: '2026-05-31', reason: 'retirement' }, company)).statusCode).toBe(200);
  });
});

describe('final pay', () => {
  it('terminate with final_pay creates an off-cycle draft (reason final_pay) with the items, paid on the exit date; reinstate cancels it', async () => {
    const user = await newUser({ baseSalary: '500000.00' });
    const res = await terminate(user.id, {
      exit_date: '2026-03-31',
      reason: 'redundancy',
      final_pay: {
        items: [
          { type: 'loss_of_office', amount: 2_000_000 },
          { type: 'leave_allowance', amount: 100_000 },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const run = res.json().final_pay_run;
    expect(run).toMatchObject({
      kind: 'off_cycle',
      reason: 'final_pay',
      status: 'draft',
      payment_date: '2026-03-31',
      counts: { unpaid: 1 },
    });
    // Loss of office is exempt to ₦50m in 2026: only the leave allowance is taxed, at the margin of the salary.
    expect(run.totals).toMatchObject({ employees: 1, gross_pay: 2_100_000, irregular_gross: 2_100_000, employee_pension: 0 });
    const stubs = (await api().get(`/api/paystubs?transaction_id=${run.id}`)).json().data.data;
    expect(stubs.map((s: { items: { type: string; taxable_amount: number }[] }) => s.items.map((i) => [i.type, i.taxable_amount]))).toEqual(
      [
        [
          ['loss_of_office', 0],
          ['leave_allowance', 100_000],
        ],
      ],
    );
    expect((await reinstate(user.id)).statusCode).toBe(200);
    expect((await api().get(`/api/payroll-runs/${run.id}`)).json().run.status).toBe('cancelled');
  });

  it('an unknown item type in final_pay is a 422 that writes neither the exit nor a run', async () => {
    const user = await newUser({ baseSalary: '500000.00' });
    const before = (await api().get('/api/payroll-runs?kind=off_cycle&per_page=100')).json().data.total;
    const res = await terminate(user.id, { exit_date: '2026-03-31', reason: 'other', final_pay: { items: [{ type: 'nope', amount: 5 }] } });
    expect([res.statusCode, res.json()]).toEqual([422, { error: { 'final_pay.items.0.type': ['The selected type is invalid.'] } }]);
    const [row] = await ctx.db.select({ exitDate: users.exitDate }).from(users).where(eq(users.id, user.id));
    expect(row.exitDate).toBeNull();
    expect((await api().get('/api/payroll-runs?kind=off_cycle&per_page=100')).json().data.total).toBe(before);
  });
});

describe('POST /api/users/{id}/reinstate', () => {
  it('clears the exit (the user is active again); 422 for a user who was never terminated', async () => {
    const user = await newUser();
    await terminate(user.id, { exit_date: lagosDay(-3), reason: 'dismissal' });
    const res = await reinstate(user.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'User reinstated successfully.',
      user: { exit_date: null, exit_reason: null, is_active: true },
    });
    const again = await reinstate(user.id);
    expect([again.statusCode, again.json()]).toEqual([422, { error: { exit_date: ['The user has not been terminated.'] } }]);
    expect((await reinstate(999_999)).statusCode).toBe(404);
  });
});

describe('scope users.terminate', () => {
  it('allows both routes; users.* too; a token scoped elsewhere gets the scope 403; users.reinstate is not a scope', async () => {
    const scoped = await createCompany(ctx.db, { name: 'Scoped Ltd', scopes: ['users.terminate'] });
    const [user] = await createUsers(ctx.db, scoped.id, [{}]);
    expect((await terminate(user.id, { exit_date: '2026-05-31', reason: 'other' }, scoped)).statusCode).toBe(200);
    expect((await reinstate(user.id, scoped)).statusCode).toBe(200);
    const wildcard = await createCompany(ctx.db, { name: 'Wild Ltd', scopes: ['users.*'] });
    const [theirs] = await createUsers(ctx.db, wildcard.id, [{}]);
    expect((await terminate(theirs.id, { exit_date: '2026-05-31', reason: 'other' }, wildcard)).statusCode).toBe(200);
    expect((await reinstate(theirs.id, wildcard)).statusCode).toBe(200);
    const narrow = await createCompany(ctx.db, { name: 'Narrow Ltd', scopes: ['users.update', 'users.show'] });
    const [mine] = await createUsers(ctx.db, narrow.id, [{}]);
    for (const res of [await terminate(mine.id, { exit_date: '2026-05-31', reason: 'other' }, narrow), await reinstate(mine.id, narrow)]) {
      expect([res.statusCode, res.json()]).toEqual([403, { error: 'This token is not allowed to access this endpoint.' }]);
    }
    const { isValidScope } = await import('../../platform/auth/tokens.js');
    expect([isValidScope('users.terminate'), isValidScope('users.reinstate')]).toEqual([true, false]);
  });
});

describe('webhook events', () => {
  it('user.exited and user.reinstated carry the user as U2 shows it, written with the change', async () => {
    const endpoint = await api().post('/api/webhook-endpoints', {
      url: 'https://93.184.215.14/leavers',
      events: ['user.exited', 'user.reinstated'],
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const user = await newUser();
    await terminate(user.id, { exit_date: '2026-04-30', reason: 'death' });
    await terminate(user.id, { exit_date: '2026-04-30', reason: 'death' }); // refused: no second event
    await reinstate(user.id);
    const events = await ctx.db.select().from(webhookEvents).where(eq(webhookEvents.companyId, acme.id));
    const bodies = events.map((event) => JSON.parse(event.body)).filter((body) => body.data?.id === user.id);
    expect(bodies.map((body) => [body.type, body.data.exit_date, body.data.exit_reason])).toEqual([
      ['user.exited', '2026-04-30', 'death'],
      ['user.reinstated', null, null],
    ]);
    // No delivery is attempted to that address by later jobs of this file.
    expect((await api().delete(`/api/webhook-endpoints/${endpoint.json().endpoint.id}`)).statusCode).toBe(200);
  });
});

describe('tenant isolation', () => {
  it("another company's user cannot be terminated or reinstated, by path or company_id", async () => {
    const [theirs] = await createUsers(ctx.db, other.id, [{}]);
    await expectTenantIsolation(
      ctx.app,
      acme,
      other,
      [
        { method: 'POST', url: `/api/users/${theirs.id}/terminate`, payload: { exit_date: '2026-05-31', reason: 'other' } },
        {
          method: 'POST',
          url: `/api/users/${theirs.id}/terminate?company_id=${other.id}`,
          payload: { exit_date: '2026-05-31', reason: 'other' },
        },
        { method: 'POST', url: `/api/users/${theirs.id}/reinstate`, payload: {} },
        { method: 'POST', url: `/api/users/${theirs.id}/reinstate`, payload: { company_id: other.id } },
        { method: 'GET', url: `/api/users?status=exited&company_id=${other.id}` },
      ],
      { tables: ['users', 'webhook_events'] },
    );
  });
});
