// Console: Add employee, Edit employee and the Status actions (docs/console.md, "People"): the
// Verify button (NUBAN check and the sandbox's resolve, nothing saved), refusals labelled by field
// name, post/redirect/get with notices, the account verified on save, confirmation steps, the last
// super admin kept, another company's employee not found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../test/helpers/factories.js';
import { anonymous, as } from '../../test/helpers/http.js';
import { createAdmin, signIn, type WebClient } from '../../test/helpers/web.js';
import { nubanFor } from '../modules/banks/index.js';

let ctx: TestContext;
let acme: TestCompany;
let other: TestCompany;
let web: WebClient;
let adminId: number;
const GTB = '058';
const account = nubanFor(GTB, '012345678');

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db, { name: 'Console People' });
  other = await createCompany(ctx.db, { name: 'Console People Other' });
  const admin = await createAdmin(ctx.db, acme.id, { roles: ['super-admin'], personalEmail: 'people.admin@personal.test' });
  adminId = admin.id;
  web = await signIn(ctx.app, admin.email);
}, 180_000);
afterAll(() => ctx?.close());

const person = () => ({
  domain_name: acme.domain,
  user_types: 'Full-time',
  first_name: 'Ada',
  last_name: 'Obi',
  personal_email: 'ada.obi@personal.test',
  start_date: '2026-01-05',
  base_salary: '350,000',
  allowances: '50000',
  bank_code: GTB,
  account_number: account,
  rsa_pin: 'PEN123456789012',
  state_of_residence: 'LA',
});

describe('Add employee', () => {
  it('shows every field with its label, the company domains and types, and today as start date', async () => {
    const res = await web.get('/console/employees/new');
    expect(res.statusCode).toBe(200);
    for (const label of ['First name', 'Personal e-mail', 'Employee type', 'Base salary', 'Account number', 'RSA PIN', 'Verify account'])
      expect(res.body).toContain(label);
    expect(res.body).toContain(`<option value="${acme.domain}" selected>`);
    expect(res.body).toContain('name="start_as" value="active" checked');
  });

  it('Verify resolves the typed account through the sandbox and saves nothing; a bad NUBAN is refused beside the field', async () => {
    const before = (await as(ctx.app, acme).get('/api/users')).json().totalResults;
    const ok = await web.post('/console/employees/new', { ...person(), intent: 'verify' });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('Account name at Guaranty Trust Bank: <strong>ADA OBI</strong>');
    expect(ok.body).toContain('value="ada.obi@personal.test"');
    const bad = await web.post('/console/employees/new', {
      ...person(),
      account_number: `${account.slice(0, 9)}${(Number(account[9]) + 1) % 10}`,
      intent: 'verify',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('The account number is not a valid NUBAN for this bank.');
    expect(bad.body).toContain('aria-invalid="true" aria-describedby="account_number-error"');
    const none = await web.post('/console/employees/new', {
      ...person(),
      account_number: '9990000009',
      bank_code: '999999',
      intent: 'verify',
    });
    expect(none.statusCode).toBe(422);
    expect((await as(ctx.app, acme).get('/api/users')).json().totalResults).toBe(before);
  });

  it('refusals name fields by their labels, keep what was typed, and write nothing (422)', async () => {
    const res = await web.post('/console/employees/new', {
      ...person(),
      first_name: '',
      rsa_pin: 'PEN12',
      base_salary: '12.345',
      intent: 'save',
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('3 things to fix');
    expect(res.body).toContain('The RSA PIN field must be PEN followed by 12 digits.');
    expect(res.body).toContain('The First name field is required.');
    expect(res.body).toContain('The Base salary field must have at most 2 decimal places.');
    expect(res.body).not.toMatch(/rsa[ _]pin field|first[ _]name field/);
    expect(res.body).toContain('value="PEN12"');
    const list = (await as(ctx.app, acme).get('/api/users')).json().Resources as { personal_email: string }[];
    expect(list.some((u) => u.personal_email === person().personal_email)).toBe(false);
  });

  it('saves through U3, verifies the account, and lands on the Edit page with a notice and the full employee number', async () => {
    const res = await web.post('/console/employees/new', { ...person(), start_as: 'active', notify: 'true', intent: 'save' });
    expect(res.statusCode, res.body.slice(res.body.indexOf('<main'), res.body.indexOf('<main') + 1500)).toBe(303);
    const location = res.headers.location as string;
    expect(location).toMatch(/^\/console\/employees\/\d+\/edit\?done=created$/);
    const id = Number(location.split('/')[3]);
    const user = (await as(ctx.app, acme).get(`/api/users/${id}`)).json();
    expect(user).toMatchObject({
      first_name: 'Ada',
      base_salary: '350000.00',
      allowances: '50000.00',
      bank_code: GTB,
      account_number: account,
      account_name: 'ADA OBI',
      rsa_pin: 'PEN123456789012',
      state_of_residence: 'LA',
      is_active: true,
    });
    expect(user.bank_account_verified_at).not.toBeNull();
    const page = await web.get(location);
    expect(page.body).toContain('Employee added.');
    expect(page.body).toContain(`<strong>${user.employee_id}</strong>`);
    expect(user.employee_id).toMatch(new RegExp(`^${acme.code}-\\d{4,}$`));
    expect(page.body).toContain('Account on record: ADA OBI (verified).');
  });
});

describe('Edit employee and Status', () => {
  it('saves a change (only what changed is sent), then Deactivate, Activate, Suspend and Unsuspend each confirm first', async () => {
    const [user] = await createUsers(ctx.db, acme.id, [{ firstName: 'Bola', lastName: 'Edit' }]);
    const form = await web.get(`/console/employees/${user.id}/edit`);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('Save changes');
    const saved = await web.post(`/console/employees/${user.id}/edit`, {
      first_name: 'Bola',
      last_name: 'Edit',
      base_salary: '420000',
      rsa_pin: '',
      intent: 'save',
    });
    expect([saved.statusCode, saved.headers.location]).toEqual([303, `/console/employees/${user.id}/edit?done=saved`]);
    expect((await web.get(saved.headers.location as string)).body).toContain('Changes saved.');
    expect((await as(ctx.app, acme).get(`/api/users/${user.id}`)).json().base_salary).toBe('420000.00');

    const refused = await web.post(`/console/employees/${user.id}/edit`, { nin: '123', intent: 'save' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('The NIN field must be 11 digits.');

    const ask = await web.post(`/console/employees/${user.id}/deactivate`, {});
    expect(ask.statusCode).toBe(200);
    expect(ask.body).toContain('Deactivate Bola Edit');
    expect((await as(ctx.app, acme).get(`/api/users/${user.id}`)).json().is_active).toBe(true);
    const off = await web.post(`/console/employees/${user.id}/deactivate`, { confirm: 'yes' });
    expect([off.statusCode, off.headers.location]).toEqual([303, `/console/employees/${user.id}/edit?done=deactivated`]);
    expect((await web.get(off.headers.location as string)).body).toContain('Employee deactivated');
    expect((await as(ctx.app, acme).get(`/api/users/${user.id}`)).json().is_active).toBe(false);
    const on = await web.post(`/console/employees/${user.id}/activate`, { confirm: 'yes' });
    expect(on.headers.location).toBe(`/console/employees/${user.id}/edit?done=activated`);
    expect((await as(ctx.app, acme).get(`/api/users/${user.id}`)).json().is_active).toBe(true);

    const badSuspend = await web.post(`/console/employees/${user.id}/suspend`, { confirm: 'yes', suspension_duration_type: 'hours' });
    expect(badSuspend.statusCode).toBe(422);
    expect(badSuspend.body).toContain('suspension duration value field is required');
    const suspend = await web.post(`/console/employees/${user.id}/suspend`, {
      suspension_duration_type: 'hours',
      suspension_duration_value: '5',
      suspension_reason: 'Audit',
    });
    expect(suspend.body).toContain('name="suspension_duration_value" value="5"');
    const suspended = await web.post(`/console/employees/${user.id}/suspend`, {
      confirm: 'yes',
      suspension_duration_type: 'hours',
      suspension_duration_value: '5',
      suspension_reason: 'Audit',
    });
    expect(suspended.headers.location).toBe(`/console/employees/${user.id}/edit?done=suspended`);
    const after = (await as(ctx.app, acme).get(`/api/users/${user.id}`)).json();
    expect([after.is_suspended, after.suspension_reason]).toEqual([true, 'Audit']);
    expect((await web.get(`/console/employees/${user.id}/edit`)).body).toContain('End the suspension');
    const back = await web.post(`/console/employees/${user.id}/unsuspend`, { confirm: 'yes' });
    expect(back.headers.location).toBe(`/console/employees/${user.id}/edit?done=unsuspended`);
    expect((await as(ctx.app, acme).get(`/api/users/${user.id}`)).json().is_suspended).toBe(false);
  });

  it('the last super admin cannot be deactivated; another company\u2019s employee is not found; a forged form is refused', async () => {
    const last = await web.post(`/console/employees/${adminId}/deactivate`, { confirm: 'yes' });
    expect(last.statusCode).toBe(403);
    expect(last.body).toContain('last active super admin');
    const [stranger] = await createUsers(ctx.db, other.id, [{ firstName: 'Not', lastName: 'Yours' }]);
    expect((await web.get(`/console/employees/${stranger.id}/edit`)).statusCode).toBe(404);
    expect((await web.post(`/console/employees/${stranger.id}/deactivate`, { confirm: 'yes' })).statusCode).toBe(404);
    expect((await web.post(`/console/employees/${stranger.id}/edit`, { first_name: 'X', intent: 'save' })).statusCode).toBe(404);
    expect((await as(ctx.app, other).get(`/api/users/${stranger.id}`)).json().is_active).toBe(true);
    const forged = await as(ctx.app, anonymous).post('/console/employees/new', 'first_name=X&_csrf=forged', {
      headers: { cookie: web.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(forged.statusCode).toBe(403);
  });
});
