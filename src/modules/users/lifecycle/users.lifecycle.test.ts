// Users U5-U7 activate/deactivate/delete and U10/U11 suspension (with the durable job that ends
// one). Update is in update/users.update.test.ts; create and read in users.test.ts.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAppWithDataDir, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { createUserViaApi, newUserBody } from '../../../../test/helpers/users.js';
import { outbox, users } from '../../../db/schema/index.js';

let ctx: TestContext;
let acme: TestCompany;
let other: TestCompany;

beforeAll(async () => {
  ctx = await createTestAppWithDataDir();
  acme = await createCompany(ctx.db, { name: 'Acme Ltd' });
  other = await createCompany(ctx.db);
});
afterAll(() => ctx?.close());

type Json = Record<string, unknown>;

const newUser = (overrides: Json = {}, company: TestCompany = acme): Json => newUserBody(company, overrides);
const create = (overrides: Json = {}, company: TestCompany = acme) => createUserViaApi(ctx.app, company, overrides);
const row = async (id: number) => (await ctx.db.select().from(users).where(eq(users.id, id)))[0];

describe('U5-U7 activate, deactivate, delete', () => {
  it('activates (onboarding completed, token cleared, optional e-mail) and deactivates', async () => {
    const user = await create();
    const res = await as(ctx.app, acme).patch(`/api/users/${user.id}/activate`, { notify: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'User activated successfully.' });
    let stored = await row(user.id);
    expect(stored.isActive).toBe(true);
    expect(stored.onboardingCompleted).toBe(true);
    expect(stored.onboardingToken).toBeNull();
    expect((await ctx.db.select().from(outbox).where(eq(outbox.to, stored.personalEmail))).map((m) => m.subject)).toEqual([
      expect.stringContaining('active'),
    ]);
    const off = await as(ctx.app, acme).patch(`/api/users/${user.id}/deactivate`);
    expect(off.json()).toEqual({ message: 'User deactivated successfully.' });
    stored = await row(user.id);
    expect(stored.isActive).toBe(false);
  });

  it('answers 400 User ID is required., 404 for missing and foreign users, 403 for a foreign company', async () => {
    const foreign = await create({}, other);
    for (const [method, suffix] of [
      ['PATCH', '/deactivate'],
      ['PATCH', '/activate'],
      ['DELETE', ''],
    ] as const) {
      const bad = await as(ctx.app, acme).request(method, `/api/users/abc${suffix}`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ error: 'User ID is required.' });
      const missing = await as(ctx.app, acme).request(method, `/api/users/${foreign.id}${suffix}`);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ error: 'User not found.' });
      const forbidden = await as(ctx.app, acme).request(method, `/api/users/${foreign.id}${suffix}?company_id=${other.id}`);
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json()).toEqual({ error: 'Unauthorized or invalid company ID.' });
    }
    expect((await row(foreign.id)).deletedAt).toBeNull();
  });

  it('refuses to deactivate or delete the last active super-admin with 403', async () => {
    const company = await createCompany(ctx.db);
    const admin = await create({ is_active: true, roles: ['super-admin'] }, company);
    const off = await as(ctx.app, company).patch(`/api/users/${admin.id}/deactivate`);
    expect(off.statusCode).toBe(403);
    expect(off.json()).toEqual({ error: 'Failed to deactivate user.' });
    const del = await as(ctx.app, company).delete(`/api/users/${admin.id}`);
    expect(del.json()).toEqual({ error: 'Failed to delete user.' });
    await create({ is_active: true, roles: ['super-admin'] }, company);
    expect((await as(ctx.app, company).patch(`/api/users/${admin.id}/deactivate`)).statusCode).toBe(200);
  });

  it('soft-deletes: 404 afterwards, absent from lists, roles removed, reports unlinked, personal e-mail free again', async () => {
    const boss = await create({ roles: ['manager'] });
    const report = await create({ manager_email: boss.email });
    const res = await as(ctx.app, acme).delete(`/api/users/${boss.id}`);
    expect(res.json()).toEqual({ message: 'User deleted successfully.' });
    const stored = await row(boss.id);
    expect(stored.deletedAt).toBeInstanceOf(Date);
    expect(stored.isActive).toBe(false);
    expect(stored.roles).toEqual([]);
    expect((await as(ctx.app, acme).get(`/api/users/${boss.id}`)).statusCode).toBe(404);
    expect((await as(ctx.app, acme).delete(`/api/users/${boss.id}`)).statusCode).toBe(404);
    expect((await row(report.id)).managerId).toBeNull();
    const list = (await as(ctx.app, acme).get('/api/users?per_page=1000')).json();
    expect(list.Resources.some((u: Json) => u.id === boss.id)).toBe(false);
    const again = await as(ctx.app, acme).post('/api/users', newUser({ personal_email: boss.personal_email }));
    expect(again.statusCode).toBe(200);
    expect(again.json().user.id).not.toBe(boss.id);
  });
});

describe('U10/U11 suspension', () => {
  const suspend = (id: number, body: Json) => as(ctx.app, acme).post(`/api/users/${id}/suspend`, body);
  const unsuspend = (id: number, body: Json) => as(ctx.app, acme).post(`/api/users/${id}/unsuspend`, body);

  it('suspends for minutes with clear_roles, and the durable job restores the roles', async () => {
    const user = await create({ is_active: true, roles: ['admin', 'user'] });
    const res = await suspend(user.id, {
      suspension_duration_type: 'minutes',
      suspension_duration_value: 30,
      clear_roles: true,
      suspension_reason: 'Audit',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('User suspended successfully.');
    expect(body.user).toMatchObject({ is_suspended: true, is_active: true, roles: [], suspension_reason: 'Audit' });
    const ends = new Date(body.user.suspension_ends_at).getTime();
    expect(Math.abs(ends - (Date.now() + 30 * 60_000))).toBeLessThan(10_000);
    // Not due yet: the job does nothing.
    await ctx.app.deps.jobs.runDue(100);
    expect((await row(user.id)).isSuspended).toBe(true);
    // Make it due (as if 30 minutes passed) and run the job.
    await ctx.db.update(users).set({ suspensionEndsAt: sql`now() - interval '1 second'` }).where(eq(users.id, user.id));
    await ctx.db.execute(
      sql`UPDATE jobs SET run_at = now() WHERE kind = 'users.suspension-end' AND payload->>'userId' = ${String(user.id)}`,
    );
    await ctx.app.deps.jobs.runDue(100);
    // The end moved (the row changed), so this stale job must not end it.
    expect((await row(user.id)).isSuspended).toBe(true);
    // A job for exactly the stored end does.
    const stored = await row(user.id);
    await ctx.app.deps.jobs.enqueue(ctx.db, 'users.suspension-end', {
      companyId: acme.id,
      userId: user.id,
      endsAt: (stored.suspensionEndsAt as Date).toISOString(),
    });
    await ctx.app.deps.jobs.runDue(100);
    const ended = await row(user.id);
    expect(ended.isSuspended).toBe(false);
    expect(ended.roles).toEqual(['admin', 'user']);
    expect(ended.suspendedRoles).toBeNull();
  });

  it('ends a suspension at its time through the job queue (hours, date, indefinite)', async () => {
    const user = await create();
    const hours = await suspend(user.id, { suspension_duration_type: 'hours', suspension_duration_value: '2' });
    expect(hours.statusCode).toBe(200);
    const date = await suspend(user.id, { suspension_duration_type: 'date', suspension_end_at: '2099-01-02 03:04:05' });
    expect(date.json().user.suspension_ends_at).toBe('2099-01-02T03:04:05.000000Z');
    const forever = await suspend(user.id, { suspension_duration_type: 'indefinite' });
    expect(forever.json().user.suspension_ends_at).toBeNull();
    // The older jobs (2 h, 2099) are stale now and never end the indefinite suspension.
    await ctx.db.execute(
      sql`UPDATE jobs SET run_at = now() WHERE kind = 'users.suspension-end' AND payload->>'userId' = ${String(user.id)}`,
    );
    await ctx.app.deps.jobs.runDue(100);
    expect((await row(user.id)).isSuspended).toBe(true);
  });

  it('unsuspends immediately or moves the end with future; Invalid action. otherwise', async () => {
    const user = await create({ roles: ['finance'] });
    expect((await unsuspend(user.id, { unsuspend_option: 'immediately' })).json()).toEqual({ error: 'Invalid action.' });
    await suspend(user.id, { suspension_duration_type: 'indefinite', clear_roles: true });
    const unknown = await unsuspend(user.id, { unsuspend_option: 'later' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ error: 'Invalid action.' });
    const past = await unsuspend(user.id, { unsuspend_option: 'future', new_unsuspension_time: '2001-01-01 00:00:00' });
    expect(past.statusCode).toBe(422);
    expect(past.json()).toEqual({ error: 'The new unsuspension time field must be a date after now.' });
    const future = await unsuspend(user.id, { unsuspend_option: 'future', new_unsuspension_time: '2099-05-05 10:00:00' });
    expect(future.statusCode).toBe(200);
    expect(future.json().user).toMatchObject({ is_suspended: true, suspension_ends_at: '2099-05-05T10:00:00.000000Z' });
    const now = await unsuspend(user.id, { unsuspend_option: 'immediately' });
    expect(now.json().message).toBe('User unsuspended successfully.');
    expect(now.json().user).toMatchObject({ is_suspended: false, roles: ['finance'], suspended_at: null, suspension_ends_at: null });
  });

  it('answers 422 {error} for bad duration input and 404 for foreign users', async () => {
    const user = await create();
    const cases: [Json, string][] = [
      [{}, 'The suspension duration type field is required.'],
      [{ suspension_duration_type: 'weeks' }, 'The selected suspension duration type is invalid.'],
      [
        { suspension_duration_type: 'minutes' },
        'The suspension duration value field is required when suspension duration type is minutes.',
      ],
      [{ suspension_duration_type: 'hours', suspension_duration_value: 0 }, 'The suspension duration value field must be at least 1.'],
      [{ suspension_duration_type: 'date' }, 'The suspension end at field is required when suspension duration type is date.'],
      [
        { suspension_duration_type: 'date', suspension_end_at: '2099-02-30 10:00:00' },
        'The suspension end at field must match the format Y-m-d H:i:s.',
      ],
      [
        { suspension_duration_type: 'date', suspension_end_at: '2001-01-01 10:00:00' },
        'The suspension end at field must be a date after now.',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await suspend(user.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json()).toEqual({ error: message });
    }
    expect((await row(user.id)).isSuspended).toBe(false);
    const foreign = await create({}, other);
    expect((await suspend(foreign.id, { suspension_duration_type: 'indefinite' })).statusCode).toBe(404);
    expect((await unsuspend(foreign.id, { unsuspend_option: 'immediately' })).json()).toEqual({ error: 'User not found.' });
    expect(
      (await as(ctx.app, acme).post(`/api/users/${foreign.id}/suspend?company_id=${other.id}`, { suspension_duration_type: 'indefinite' }))
        .statusCode,
    ).toBe(403);
  });
});
