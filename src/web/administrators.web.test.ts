// Console: Administrators (docs/console.md, "Administrators"): the list, inviting by e-mail (the
// link shown to the inviter when no SMTP server is configured; the invitee onboards and signs in),
// changing the role (only a super admin touches super admin), removing (never the last super admin;
// the removed administrator's session ends), refusals labelled, another company's user not found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../test/helpers/factories.js';
import { anonymous, as } from '../../test/helpers/http.js';
import { createAdmin, csrfOf, formBody, mergeCookies, signIn, type WebClient } from '../../test/helpers/web.js';

let ctx: TestContext;
let acme: TestCompany;
let other: TestCompany;
let owner: WebClient;
let ownerId: number;

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db, { name: 'Console Admins' });
  other = await createCompany(ctx.db, { name: 'Console Admins Other' });
  const admin = await createAdmin(ctx.db, acme.id, { roles: ['super-admin'], personalEmail: 'owner.admins@personal.test' });
  ownerId = admin.id;
  owner = await signIn(ctx.app, admin.email);
}, 180_000);
afterAll(() => ctx?.close());

const user = async (id: number) => (await as(ctx.app, acme).get(`/api/users/${id}`)).json();

async function onboard(link: string, password: string) {
  const path = new URL(link).pathname;
  const visitor = as(ctx.app, anonymous);
  const form = await visitor.get(path);
  expect(form.statusCode).toBe(200);
  const cookie = mergeCookies('', form.headers['set-cookie']);
  const done = await visitor.post(path, formBody({ _csrf: csrfOf(form.body), password, password_confirmation: password }), {
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(done.statusCode, done.body.slice(0, 300)).toBe(200);
}

describe('Administrators', () => {
  let invitedId: number;
  let invitedEmail: string;

  it('lists the administrators and invites one: the link is shown (no SMTP); the invitee onboards and signs in', async () => {
    const page = await owner.get('/console/administrators');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('1 administrator<');
    expect(page.body).toContain('(you)');
    expect(page.body).toContain('href="/console/administrators"');

    const res = await owner.post('/console/administrators/invite', {
      first_name: 'Chidi',
      last_name: 'Checker',
      personal_email: 'chidi.checker@personal.test',
      role: 'admin',
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Chidi Checker is invited as admin.');
    const link = /<code id="onboarding-link">([^<]+)<\/code>/.exec(res.body)?.[1] as string;
    expect(link).toMatch(/\/onboarding\/[\w-]{32,}$/);
    expect(res.body).toContain('2 administrators');
    const list = (await as(ctx.app, acme).get('/api/users')).json().Resources as {
      id: number;
      personal_email: string;
      email: string;
      roles?: string[];
    }[];
    const invited = list.find((u) => u.personal_email === 'chidi.checker@personal.test');
    invitedId = invited?.id as number;
    invitedEmail = invited?.email as string;
    expect(await user(invitedId)).toMatchObject({ is_active: false, onboarding_completed: 0 });

    await onboard(link, 'Checker-Password-1!');
    const second = await signIn(ctx.app, 'chidi.checker@personal.test', 'Checker-Password-1!');
    const seen = await second.get('/console/administrators');
    expect(seen.statusCode).toBe(200);
    expect(seen.body).not.toContain('<option value="super-admin"');
    // An admin may not grant super admin, nor remove or demote the super admin.
    const grant = await second.post(`/console/administrators/${invitedId}/role`, { role: 'super-admin' });
    expect(grant.statusCode).toBe(403);
    expect(grant.body).toContain('Only a super admin may grant or take away the super admin role.');
    expect((await second.post(`/console/administrators/${ownerId}/remove`, {})).statusCode).toBe(403);
    expect(
      (
        await second.post('/console/administrators/invite', {
          first_name: 'A',
          last_name: 'B',
          personal_email: 'ab@personal.test',
          role: 'super-admin',
        })
      ).statusCode,
    ).toBe(403);
  });

  it('refusals: a bad e-mail (labelled, 422), an active person again (400), the last super admin kept (403)', async () => {
    const bad = await owner.post('/console/administrators/invite', {
      first_name: 'No',
      last_name: 'Mail',
      personal_email: 'not-an-email',
      role: 'admin',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('E-mail address:');
    expect(bad.body).toContain('value="not-an-email"');
    const again = await owner.post('/console/administrators/invite', {
      first_name: 'Owner',
      last_name: 'Again',
      personal_email: 'owner.admins@personal.test',
      role: 'admin',
    });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('User already exists and is active.');
    const demote = await owner.post(`/console/administrators/${ownerId}/role`, { role: 'admin' });
    expect(demote.statusCode).toBe(403);
    expect(demote.body).toContain('at least one active super admin');
    expect((await owner.post(`/console/administrators/${ownerId}/remove`, {})).statusCode).toBe(403);
    expect((await owner.post(`/console/administrators/${ownerId}/role`, { role: 'owner' })).statusCode).toBe(422);
  });

  it('a super admin changes the role and removes; the removed administrator is signed out and stays an employee', async () => {
    const second = await signIn(ctx.app, invitedEmail, 'Checker-Password-1!');
    const promote = await owner.post(`/console/administrators/${invitedId}/role`, { role: 'super-admin' });
    expect([promote.statusCode, promote.headers.location]).toEqual([303, '/console/administrators?done=role']);
    expect((await owner.get('/console/administrators?done=role')).body).toContain('Role changed.');
    // Now the owner is no longer the last super admin: demoting the owner works.
    const demote = await owner.post(`/console/administrators/${ownerId}/role`, { role: 'admin' });
    expect(demote.statusCode).toBe(303);
    const promoteBack = await second.post(`/console/administrators/${ownerId}/role`, { role: 'super-admin' });
    expect(promoteBack.statusCode).toBe(303);
    const removed = await owner.post(`/console/administrators/${invitedId}/remove`, {});
    expect([removed.statusCode, removed.headers.location]).toEqual([303, '/console/administrators?done=removed']);
    expect((await owner.get('/console/administrators?done=removed')).body).toContain('Administrator removed');
    expect((await second.get('/console/administrators')).statusCode).toBe(303);
    expect((await user(invitedId)).is_active).toBe(true);
  });

  it('another company\u2019s administrator is not found', async () => {
    const stranger = await createAdmin(ctx.db, other.id, { roles: ['super-admin'] });
    expect((await owner.post(`/console/administrators/${stranger.id}/role`, { role: 'admin' })).statusCode).toBe(404);
    expect((await owner.post(`/console/administrators/${stranger.id}/remove`, {})).statusCode).toBe(404);
  });
});
