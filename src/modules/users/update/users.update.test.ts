// Users U4 update, U5-U7 activate/deactivate/delete and U10/U11 suspension. Create and read are in
// users.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { createUserViaApi, multipart, newUserBody } from '../../../../test/helpers/users.js';
import { outbox, users } from '../../../db/schema/index.js';
import { verifyPassword } from '../lifecycle/users.passwords.rules.js';

let ctx: TestContext;
let acme: TestCompany;
let other: TestCompany;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'users-test-'));
  ctx = await createTestApp({ dataDir });
  acme = await createCompany(ctx.db, { name: 'Acme Ltd' });
  other = await createCompany(ctx.db);
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Json = Record<string, unknown>;

const newUser = (overrides: Json = {}, company: TestCompany = acme): Json => newUserBody(company, overrides);
const create = (overrides: Json = {}, company: TestCompany = acme) => createUserViaApi(ctx.app, company, overrides);
const row = async (id: number) => (await ctx.db.select().from(users).where(eq(users.id, id)))[0];

describe('U4 update', () => {
  it('updates fields, re-derives the e-mail on a name change and reports it', async () => {
    const user = await create({ first_name: 'Ngozi', last_name: 'Ade' });
    const res = await as(ctx.app, acme).put(`/api/users/${user.id}`, {
      last_name: 'Okafor',
      title: 'Lead',
      base_salary: '300000',
      notify: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.message).toBe('User updated successfully via API');
    expect(body.emailUpdate).toBe(`Email changed to ngozi.okafor@${acme.domain}.`);
    expect(body.uniqueIdUpdate).toBe('No change.');
    expect(body.user).toMatchObject({ last_name: 'Okafor', title: 'Lead', base_salary: '300000.00', email: `ngozi.okafor@${acme.domain}` });
    const stored = await row(user.id);
    const mails = await ctx.db.select().from(outbox).where(eq(outbox.to, stored.personalEmail));
    expect(mails.map((m) => m.subject)).toEqual([expect.stringContaining('updated')]);

    const same = await as(ctx.app, acme).put(`/api/users/${user.id}`, { title: 'Lead' });
    expect(same.json().emailUpdate).toBe('No change.');
  });

  it('stores an argon2id password after the rules, and answers 422 with the password messages', async () => {
    const user = await create();
    const weak = await as(ctx.app, acme).put(`/api/users/${user.id}`, { password: 'short', password_confirmation: 'short' });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().error.password).toEqual([
      'The password field must be at least 12 characters.',
      'The password field must contain at least one uppercase letter.',
      'The password field must contain at least one symbol.',
    ]);
    const mismatch = await as(ctx.app, acme).put(`/api/users/${user.id}`, {
      password: 'Correct-Horse-42',
      password_confirmation: 'Correct-Horse-43',
    });
    expect(mismatch.json()).toEqual({ error: { password: ['The password field confirmation does not match.'] } });
    const ok = await as(ctx.app, acme).put(`/api/users/${user.id}`, {
      password: 'Correct-Horse-42',
      password_confirmation: 'Correct-Horse-42',
    });
    expect(ok.statusCode).toBe(200);
    const stored = await row(user.id);
    expect(stored.passwordHash?.startsWith('$argon2id$')).toBe(true);
    expect(await verifyPassword(stored.passwordHash, 'Correct-Horse-42')).toBe(true);
    expect(ok.body).not.toContain('argon2');
  });

  it('answers 422 for unknown domain, type, manager, a taken personal e-mail and self-management', async () => {
    const user = await create();
    const taken = await create();
    const res = await as(ctx.app, acme).put(`/api/users/${user.id}`, {
      domain_name: 'nope.test',
      user_types: 'Astronaut',
      manager_email: 'nobody@nowhere.test',
      personal_email: taken.personal_email as string,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: {
        domain_name: ['Domain name does not exist for the specified company.'],
        user_types: ['The user type entered does not exist for the specified company.'],
        manager_email: ['Manager with specified email does not exist.'],
        personal_email: ['The personal email has already been taken.'],
      },
    });
    const self = await as(ctx.app, acme).put(`/api/users/${user.id}`, { manager_email: user.email });
    expect(self.json()).toEqual({ error: { manager_email: ['A user cannot be their own manager.'] } });
  });

  it('answers 404 for a missing or foreign user and 403 for a foreign company', async () => {
    const foreign = await create({}, other);
    expect((await as(ctx.app, acme).put(`/api/users/${foreign.id}`, { title: 'x' })).json()).toEqual({ error: 'User not found.' });
    expect((await as(ctx.app, acme).put('/api/users/99999999', { title: 'x' })).statusCode).toBe(404);
    const res = await as(ctx.app, acme).put(`/api/users/${foreign.id}`, { title: 'x', company_id: other.id });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'Unauthorized or invalid company ID.' });
    expect((await row(foreign.id)).title).toBeNull();
  });

  it('accepts documents as multipart (sniffed PDF/PNG/JPEG, 5 MiB) and deletes them with the user', async () => {
    const user = await create();
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(100, 1)]);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(50)]);
    const form = multipart({ title: 'With papers' }, [
      { field: 'documents', filename: 'cv.pdf', contentType: 'application/pdf', data: pdf },
      { field: 'documents', filename: 'id.png', contentType: 'image/png', data: png },
    ]);
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers: { ...acme.auth, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    const paths: string[] = res.json().user.document_paths;
    expect(paths).toHaveLength(2);
    expect(res.json().user.title).toBe('With papers');
    for (const p of paths) {
      expect(p.startsWith(`documents/${acme.id}/${user.id}/`)).toBe(true);
      expect(fs.existsSync(path.join(dataDir, p))).toBe(true);
    }

    const fake = multipart({}, [{ field: 'documents', filename: 'cv.pdf', contentType: 'application/pdf', data: 'MZ not a pdf' }]);
    const bad = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers: { ...acme.auth, ...fake.headers },
      payload: fake.payload,
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ error: { 'documents.0': ['The documents.0 field must be a file of type: pdf, png, jpg, jpeg.'] } });
    const big = multipart({}, [
      { field: 'documents', filename: 'big.pdf', data: Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(5 * 1024 * 1024)]) },
    ]);
    const tooBig = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers: { ...acme.auth, ...big.headers },
      payload: big.payload,
    });
    expect(tooBig.statusCode).toBe(422);
    expect(tooBig.json()).toEqual({ error: { 'documents.0': ['The documents.0 field must not be greater than 5120 kilobytes.'] } });
    expect(fs.readdirSync(path.join(dataDir, 'documents', String(acme.id), String(user.id)))).toHaveLength(2);

    // A multipart company_id of another company is refused like a JSON one.
    const foreignForm = multipart({ company_id: String(other.id), title: 'x' });
    const forbidden = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers: { ...acme.auth, ...foreignForm.headers },
      payload: foreignForm.payload,
    });
    expect(forbidden.statusCode).toBe(403);

    expect((await as(ctx.app, acme).delete(`/api/users/${user.id}`)).statusCode).toBe(200);
    for (const p of paths) expect(fs.existsSync(path.join(dataDir, p))).toBe(false);
  });
});

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
