// Who may hand out console access through the API (docs/users.md, "Console roles through the
// API"): assigning admin/super-admin, or setting the password of a user who holds one, needs a
// token with `all`; invitations of such users are shown only to such a token. Also: deactivation
// ends an invitation, so an onboarding link never brings back a deactivated user.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { multipart } from '../../../test/helpers/users.js';
import { ADMIN_PASSWORD, createAdmin } from '../../../test/helpers/web.js';
import { users } from '../../db/schema/index.js';
import { createOnboardingService } from './lifecycle/users.onboarding.service.js';

let ctx: TestContext;
/** A token scoped to every users route one by one, but not `all`. */
let narrow: TestCompany;
let full: TestCompany;
const DENIED = { error: 'This token is not allowed to access this endpoint.' };
const NEW_PASSWORD = 'Another-Secret-2026!';
const NARROW_SCOPES = [
  'users.index',
  'users.show',
  'users.store',
  'users.update',
  'users.activate',
  'users.deactivate',
  'users.destroy',
  'users.suspend',
  'users.bulk-create',
  'users.bulk-update',
];

beforeAll(async () => {
  ctx = await createTestApp();
  narrow = await createCompany(ctx.db, { scopes: NARROW_SCOPES });
  full = await createCompany(ctx.db, { scopes: ['all'] });
}, 180_000);
afterAll(() => ctx?.close());

type Json = Record<string, unknown>;
const row = async (id: number) => (await ctx.db.select().from(users).where(eq(users.id, id)))[0];

let seq = 0;
const person = (company: TestCompany, overrides: Json = {}): Json => {
  seq += 1;
  return {
    first_name: 'Kemi',
    last_name: `Sec${seq}`,
    personal_email: `kemi.${seq}.${process.pid}@personal.test`,
    domain_name: company.domain,
    user_types: 'Full-time',
    start_date: '2024-01-15',
    ...overrides,
  };
};

/** An invited (inactive, onboarding open) user with the given roles. */
async function invited(company: TestCompany, roles: string[]) {
  const [user] = await createUsers(ctx.db, company.id, [{ isActive: false, roles }]);
  const token = `invite-${user.id}-${'x'.repeat(32)}`;
  await ctx.db
    .update(users)
    .set({ onboardingToken: token, tokenExpiresAt: new Date(Date.now() + 86_400_000), onboardingCompleted: false })
    .where(eq(users.id, user.id));
  return { ...user, token };
}

describe('granting console roles through U3', () => {
  it('refuses admin and super-admin to a token without `all` (403, nothing written), allows other roles', async () => {
    for (const roles of [['super-admin'], ['admin'], ['user', 'admin']]) {
      const body = person(narrow, { roles, is_active: true });
      const res = await as(ctx.app, narrow).post('/api/users', body);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual(DENIED);
      const found = await ctx.db
        .select()
        .from(users)
        .where(eq(users.personalEmail, body.personal_email as string));
      expect(found).toEqual([]);
    }
    const finance = await as(ctx.app, narrow).post('/api/users', person(narrow, { roles: ['finance', 'manager'] }));
    expect(finance.statusCode, finance.body).toBe(200);
  });

  it('lets an `all` token create an administrator', async () => {
    const res = await as(ctx.app, full).post('/api/users', person(full, { roles: ['super-admin'] }));
    expect(res.statusCode, res.body).toBe(200);
    expect((await row(res.json().user.id)).roles).toEqual(['super-admin']);
  });

  it('refuses to promote an inactive user through a re-invite (same personal e-mail)', async () => {
    const [user] = await createUsers(ctx.db, narrow.id, [{ isActive: false }]);
    const res = await as(ctx.app, narrow).post('/api/users', person(narrow, { personal_email: user.personalEmail, roles: ['admin'] }));
    expect(res.statusCode, res.body).toBe(403);
    expect((await row(user.id)).roles).toEqual(['user']);
  });
});

describe('U4 and console roles', () => {
  it('never changes roles (U4 has no roles field)', async () => {
    const [user] = await createUsers(ctx.db, narrow.id, [{}]);
    const res = await as(ctx.app, narrow).put(`/api/users/${user.id}`, { roles: ['super-admin'], title: 'Clerk' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await row(user.id)).roles).toEqual(['user']);
  });

  it('refuses to set the password of an administrator without `all` (403, nothing changed)', async () => {
    const admin = await createAdmin(ctx.db, narrow.id, { roles: ['super-admin'] });
    const res = await as(ctx.app, narrow).put(`/api/users/${admin.id}`, {
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
      title: 'Changed',
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toEqual(DENIED);
    const after = await row(admin.id);
    expect(after.passwordHash).toBe(admin.passwordHash);
    expect(after.title).not.toBe('Changed');
  });

  it('counts roles put aside by a suspension (clear_roles) as held', async () => {
    const [user] = await createUsers(ctx.db, narrow.id, [{ roles: [] }]);
    await ctx.db
      .update(users)
      .set({ isSuspended: true, suspendedRoles: ['admin'] })
      .where(eq(users.id, user.id));
    const res = await as(ctx.app, narrow).put(`/api/users/${user.id}`, { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expect(res.statusCode, res.body).toBe(403);
  });

  it('still lets a narrow token set the password of an ordinary user, and `all` that of an administrator', async () => {
    const [user] = await createUsers(ctx.db, narrow.id, [{}]);
    const ok = await as(ctx.app, narrow).put(`/api/users/${user.id}`, { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expect(ok.statusCode, ok.body).toBe(200);
    const admin = await createAdmin(ctx.db, full.id);
    const byAll = await as(ctx.app, full).put(`/api/users/${admin.id}`, { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expect(byAll.statusCode, byAll.body).toBe(200);
    expect((await row(admin.id)).passwordHash).not.toBe(admin.passwordHash);
  });
});

describe('U8/U9 files cannot carry roles or passwords', () => {
  const upload = (url: string, csv: string) => {
    const form = multipart({}, [{ field: 'users_csv', filename: 'users.csv', contentType: 'text/csv', data: csv }]);
    return as(ctx.app, narrow).post(url, form.payload, { headers: form.headers });
  };

  it('ignores roles and password columns', async () => {
    const email = `bulk.${process.pid}.${Date.now()}@personal.test`;
    const created = await upload(
      '/api/users/bulk-create',
      `first_name,last_name,personal_email,domain,user_types,start_date,roles,password\r\nBola,Bulk,${email},${narrow.domain},Full-time,2024-01-15,super-admin,${NEW_PASSWORD}\r\n`,
    );
    expect(created.statusCode, created.body).toBe(200);
    const [{ id, email: companyEmail }] = created.json().successes;
    expect((await row(id)).roles).toEqual(['user']);
    const updated = await upload(
      '/api/users/bulk-update',
      `email,title,roles,password,password_confirmation\r\n${companyEmail},Boss,admin,${NEW_PASSWORD},${NEW_PASSWORD}\r\n`,
    );
    expect(updated.statusCode, updated.body).toBe(200);
    const after = await row(id);
    expect(after.roles).toEqual(['user']);
    expect(after.passwordHash).toBeNull();
  });
});

describe('onboarding_token of users holding a console role', () => {
  it('is null for a token without `all` on U1, U2, U4 and U10, and shown for ordinary users', async () => {
    const admin = await invited(narrow, ['admin']);
    const employee = await invited(narrow, ['user']);
    const list = await as(ctx.app, narrow).get('/api/users?count=1000');
    const item = (id: number) => list.json().Resources.find((u: Json) => u.id === id);
    expect(item(admin.id).onboarding_token).toBeNull();
    expect(item(employee.id).onboarding_token).toBe(employee.token);

    expect((await as(ctx.app, narrow).get(`/api/users/${admin.id}`)).json().onboarding_token).toBeNull();
    expect((await as(ctx.app, narrow).get(`/api/users/${employee.id}`)).json().onboarding_token).toBe(employee.token);
    const updated = await as(ctx.app, narrow).put(`/api/users/${admin.id}`, { title: 'Head of People' });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().user.onboarding_token).toBeNull();
    const suspended = await as(ctx.app, narrow).post(`/api/users/${admin.id}/suspend`, { suspension_duration_type: 'indefinite' });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(suspended.json().user.onboarding_token).toBeNull();
    // The token itself is untouched: the invitation still works for the person it was sent to.
    expect((await row(admin.id)).onboardingToken).toBe(admin.token);
  });

  it('is shown to an `all` token on U1, U2 and U4; U3 never returns it', async () => {
    const admin = await invited(full, ['super-admin']);
    const list = await as(ctx.app, full).get('/api/users?count=1000');
    expect(list.json().Resources.find((u: Json) => u.id === admin.id).onboarding_token).toBe(admin.token);
    expect((await as(ctx.app, full).get(`/api/users/${admin.id}`)).json().onboarding_token).toBe(admin.token);
    expect((await as(ctx.app, full).put(`/api/users/${admin.id}`, { title: 'CEO' })).json().user.onboarding_token).toBe(admin.token);
    const created = await as(ctx.app, narrow).post('/api/users', person(narrow));
    expect(created.json().user).not.toHaveProperty('onboarding_token');
  });
});

describe('invitations of deactivated and deleted users', () => {
  const onboarding = () => createOnboardingService({ db: ctx.db });

  it('U5 revokes the invitation: the link no longer activates the user', async () => {
    const user = await invited(full, ['user']);
    const res = await as(ctx.app, full).patch(`/api/users/${user.id}/deactivate`);
    expect(res.statusCode, res.body).toBe(200);
    const after = await row(user.id);
    expect(after.onboardingToken).toBeNull();
    expect(after.tokenExpiresAt).toBeNull();
    expect(await onboarding().find(user.token)).toBeUndefined();
    await expect(onboarding().complete(user.token, NEW_PASSWORD, NEW_PASSWORD)).rejects.toMatchObject({ code: 'not_found' });
    expect((await row(user.id)).isActive).toBe(false);
  });

  it('U7 revokes the invitation, and U6 ends it (activation completes onboarding)', async () => {
    const deleted = await invited(full, ['user']);
    expect((await as(ctx.app, full).delete(`/api/users/${deleted.id}`)).statusCode).toBe(200);
    expect((await row(deleted.id)).onboardingToken).toBeNull();
    await expect(onboarding().complete(deleted.token, NEW_PASSWORD, NEW_PASSWORD)).rejects.toMatchObject({ code: 'not_found' });

    const activated = await invited(full, ['user']);
    expect((await as(ctx.app, full).patch(`/api/users/${activated.id}/activate`)).statusCode).toBe(200);
    expect((await row(activated.id)).onboardingToken).toBeNull();
    expect(await onboarding().find(activated.token)).toBeUndefined();
  });

  it('a deactivated administrator cannot come back through an old link and sign in', async () => {
    const admin = await invited(full, ['admin']);
    await as(ctx.app, full).patch(`/api/users/${admin.id}/deactivate`);
    await expect(onboarding().complete(admin.token, ADMIN_PASSWORD, ADMIN_PASSWORD)).rejects.toMatchObject({ code: 'not_found' });
    const after = await row(admin.id);
    expect(after.isActive).toBe(false);
    expect(after.passwordHash).toBeNull();
  });
});
