// Console: Terminate and Reinstate on the employee's page (docs/console.md, "Employees"): a form, a
// confirm step, the exit recorded through the leavers service, post/redirect/get with a notice; the
// employees list marks leavers and filters the exited; an exited administrator cannot sign in.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../test/helpers/factories.js';
import { anonymous, as } from '../../test/helpers/http.js';
import { ADMIN_PASSWORD, createAdmin, csrfOf, formBody, mergeCookies, signIn, type WebClient } from '../../test/helpers/web.js';
import { webSessions } from '../db/schema/index.js';
import { lagosDate } from '../platform/format.js';

let ctx: TestContext;
let acme: TestCompany;
let web: WebClient;

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db, { name: 'Console Leavers' });
  const admin = await createAdmin(ctx.db, acme.id, { roles: ['super-admin'], personalEmail: 'leavers.admin@personal.test' });
  web = await signIn(ctx.app, admin.email);
}, 180_000);
afterAll(() => ctx?.close());

function lagosDay(days: number): string {
  const date = new Date(`${lagosDate()}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
const employee = async () => (await createUsers(ctx.db, acme.id, [{ firstName: 'Tolu', lastName: 'Leaver' }]))[0];

describe('Terminate on the employee page', () => {
  it('form, confirm step, then the exit with a notice (post/redirect/get); the page then offers Reinstate', async () => {
    const user = await employee();
    const page = await web.get(`/console/employees/${user.id}/statutory`);
    expect(page.body).toContain('No exit is recorded.');
    expect(page.body).toContain(`href="/console/employees/${user.id}/terminate"`);
    const form = await web.get(`/console/employees/${user.id}/terminate`);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('name="exit_date" type="date"');
    expect(form.body).toContain('<option value="end_of_contract">End of contract</option>');

    const confirm = await web.post(`/console/employees/${user.id}/terminate`, { exit_date: lagosDay(-1), reason: 'redundancy' });
    expect(confirm.statusCode, confirm.body.slice(0, 500)).toBe(200);
    expect(confirm.body).toContain('Confirm the exit of Tolu Leaver');
    expect(confirm.body).toContain('name="confirm" value="yes"');
    expect(confirm.body).toContain('already passed');
    // Nothing is recorded by the first step.
    expect((await as(ctx.app, acme).get(`/api/users/${user.id}`)).json().exit_date).toBeNull();

    const done = await web.post(`/console/employees/${user.id}/terminate`, {
      exit_date: lagosDay(-1),
      reason: 'redundancy',
      confirm: 'yes',
    });
    expect(done.statusCode, done.body.slice(0, 500)).toBe(303);
    expect(done.headers.location).toBe(`/console/employees/${user.id}/statutory?done=terminated`);
    const after = await web.get(done.headers.location as string);
    expect(after.body).toContain('Exit recorded.');
    expect(after.body).toContain('<span class="badge off">Exited</span>');
    expect(after.body).toContain(`action="/console/employees/${user.id}/reinstate"`);
    expect((await as(ctx.app, acme).get(`/api/users/${user.id}`)).json()).toMatchObject({
      exit_date: lagosDay(-1),
      exit_reason: 'redundancy',
      is_active: false,
    });

    const back = await web.post(`/console/employees/${user.id}/reinstate`, {});
    expect([back.statusCode, back.headers.location]).toEqual([303, `/console/employees/${user.id}/statutory?done=reinstated`]);
    expect((await web.get(back.headers.location as string)).body).toContain('Exit undone');
    expect((await as(ctx.app, acme).get(`/api/users/${user.id}`)).json().exit_date).toBeNull();
  });

  it('a refused exit shows the form again with the message and what was typed (422), nothing recorded', async () => {
    const user = await employee();
    const res = await web.post(`/console/employees/${user.id}/terminate`, { exit_date: '2024-01-01', reason: 'dismissal' });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('The exit date must not be before the user&#39;s start date (2024-01-15).');
    expect(res.body).toContain('value="2024-01-01"');
    expect(res.body).toContain('<option value="dismissal" selected>');
    const forged = await web.post(`/console/employees/${user.id}/terminate`, { exit_date: '2026-05-01', reason: 'fired', confirm: 'yes' });
    expect(forged.statusCode).toBe(422);
    expect(forged.body).toContain('The selected reason is invalid.');
    expect((await as(ctx.app, acme).get(`/api/users/${user.id}`)).json().exit_date).toBeNull();
  });

  it('Reinstate of a user who was never terminated is refused on the page (422)', async () => {
    const user = await employee();
    const res = await web.post(`/console/employees/${user.id}/reinstate`, {});
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('The user has not been terminated.');
  });

  it("another company's employee is not found", async () => {
    const other = await createCompany(ctx.db, { name: 'Other Console' });
    const [theirs] = await createUsers(ctx.db, other.id, [{}]);
    expect((await web.get(`/console/employees/${theirs.id}/terminate`)).statusCode).toBe(404);
    expect(
      (await web.post(`/console/employees/${theirs.id}/terminate`, { exit_date: '2026-05-01', reason: 'other', confirm: 'yes' }))
        .statusCode,
    ).toBe(404);
    expect((await web.post(`/console/employees/${theirs.id}/reinstate`, {})).statusCode).toBe(404);
  });
});

describe('the employees list', () => {
  it('marks the exited and those leaving, and filters the exited', async () => {
    const [gone, leaving] = [await employee(), await employee()];
    await as(ctx.app, acme).post(`/api/users/${gone.id}/terminate`, { exit_date: lagosDay(-2), reason: 'resignation' });
    await as(ctx.app, acme).post(`/api/users/${leaving.id}/terminate`, { exit_date: lagosDay(10), reason: 'retirement' });
    const row = (body: string, id: number) => body.slice(body.indexOf(`/console/employees/${id}/statutory`)).split('</tr>')[0];
    const list = (await web.get('/console/employees')).body;
    expect(row(list, gone.id)).toContain('<span class="badge off">Exited</span>');
    expect(row(list, leaving.id)).toContain(`<span class="badge warn">Leaving ${lagosDay(10)}</span>`);
    expect(row(list, leaving.id)).toContain('<span class="badge ok">Active</span>');
    const exited = (await web.get('/console/employees?status=exited')).body;
    expect(exited).toContain('<option value="exited" selected>Exited</option>');
    expect(exited).toContain(`/console/employees/${gone.id}/statutory`);
    expect(exited).not.toContain(`/console/employees/${leaving.id}/statutory`);
    const active = (await web.get('/console/employees?status=active')).body;
    expect(active).not.toContain(`/console/employees/${gone.id}/statutory`);
    expect(active).toContain(`/console/employees/${leaving.id}/statutory`);
  });
});

describe('sign-in of a leaver', () => {
  it('an administrator leaving next week still signs in; once exited they cannot, and their sessions end', async () => {
    const leaver = await createAdmin(ctx.db, acme.id, { personalEmail: 'admin.leaver@personal.test' });
    expect(
      (await as(ctx.app, acme).post(`/api/users/${leaver.id}/terminate`, { exit_date: lagosDay(7), reason: 'resignation' })).statusCode,
    ).toBe(200);
    const session = await signIn(ctx.app, leaver.email);
    expect((await session.get('/console/employees')).statusCode).toBe(200);
    // The same exit dated yesterday: exited now, the open session ends in the same transaction.
    expect((await as(ctx.app, acme).post(`/api/users/${leaver.id}/reinstate`, {})).statusCode).toBe(200);
    expect(
      (await as(ctx.app, acme).post(`/api/users/${leaver.id}/terminate`, { exit_date: lagosDay(-1), reason: 'resignation' })).statusCode,
    ).toBe(200);
    expect(await ctx.db.select().from(webSessions).where(eq(webSessions.userId, leaver.id))).toEqual([]);
    const gone = await session.get('/console/employees');
    expect([gone.statusCode, gone.headers.location]).toEqual([303, '/console/login?next=%2Fconsole%2Femployees']);
    // Refused like a deactivated account (403, the "not active" message), the password being right.
    await expect(signIn(ctx.app, leaver.email)).rejects.toThrow(/sign-in failed: 403/);
    const visitor = as(ctx.app, anonymous);
    const login = await visitor.get('/console/login');
    const refused = await visitor.post(
      '/console/login',
      formBody({ _csrf: csrfOf(login.body), email: leaver.email, password: ADMIN_PASSWORD }),
      {
        headers: { cookie: mergeCookies('', login.headers['set-cookie']), 'content-type': 'application/x-www-form-urlencoded' },
      },
    );
    expect([refused.statusCode, refused.body.includes('This account is not active.')]).toEqual([403, true]);
  });
});
