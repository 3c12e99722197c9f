// Users U4 update (JSON and multipart with documents). Activation, deactivation, deletion and
// suspension are in lifecycle/users.lifecycle.test.ts; create and read in users.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAppWithDataDir, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { createUserViaApi, multipart } from '../../../../test/helpers/users.js';
import { outbox, users } from '../../../db/schema/index.js';
import { verifyPassword } from '../lifecycle/users.passwords.rules.js';

let ctx: TestContext & { dataDir: string };
let acme: TestCompany;
let other: TestCompany;
let dataDir: string;

beforeAll(async () => {
  ctx = await createTestAppWithDataDir();
  dataDir = ctx.dataDir;
  acme = await createCompany(ctx.db, { name: 'Acme Ltd' });
  other = await createCompany(ctx.db);
});
afterAll(() => ctx?.close());

type Json = Record<string, unknown>;

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
    const res = await as(ctx.app, acme).put(`/api/users/${user.id}`, form.payload, { headers: form.headers });
    expect(res.statusCode, res.body).toBe(200);
    const paths: string[] = res.json().user.document_paths;
    expect(paths).toHaveLength(2);
    expect(res.json().user.title).toBe('With papers');
    for (const p of paths) {
      expect(p.startsWith(`documents/${acme.id}/${user.id}/`)).toBe(true);
      expect(fs.existsSync(path.join(dataDir, p))).toBe(true);
    }

    const fake = multipart({}, [{ field: 'documents', filename: 'cv.pdf', contentType: 'application/pdf', data: 'MZ not a pdf' }]);
    const bad = await as(ctx.app, acme).put(`/api/users/${user.id}`, fake.payload, { headers: fake.headers });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ error: { 'documents.0': ['The documents.0 field must be a file of type: pdf, png, jpg, jpeg.'] } });
    const big = multipart({}, [
      { field: 'documents', filename: 'big.pdf', data: Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(5 * 1024 * 1024)]) },
    ]);
    const tooBig = await as(ctx.app, acme).put(`/api/users/${user.id}`, big.payload, { headers: big.headers });
    expect(tooBig.statusCode).toBe(422);
    expect(tooBig.json()).toEqual({ error: { 'documents.0': ['The documents.0 field must not be greater than 5120 kilobytes.'] } });
    expect(fs.readdirSync(path.join(dataDir, 'documents', String(acme.id), String(user.id)))).toHaveLength(2);

    // A multipart company_id of another company is refused like a JSON one.
    const foreignForm = multipart({ company_id: String(other.id), title: 'x' });
    const forbidden = await as(ctx.app, acme).put(`/api/users/${user.id}`, foreignForm.payload, { headers: foreignForm.headers });
    expect(forbidden.statusCode).toBe(403);

    expect((await as(ctx.app, acme).delete(`/api/users/${user.id}`)).statusCode).toBe(200);
    for (const p of paths) expect(fs.existsSync(path.join(dataDir, p))).toBe(false);
  });
});
