// Console → Audit log over inject (docs/audit.md): sign-ins and failed sign-ins recorded with the
// console user as actor, a change made in the console recorded as that person, the filters, the
// diff of an update, a bad filter shown on the page, and only the company's own events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../test/helpers/factories.js';
import { as } from '../../test/helpers/http.js';
import { createUserViaApi } from '../../test/helpers/users.js';
import { createAdmin, signIn, type WebClient } from '../../test/helpers/web.js';

let ctx: TestContext;
let acme: TestCompany;
let admin: WebClient;
let adminId: number;
let adminEmail: string;
let stranger: WebClient;

const PAGE = '/console/audit-log';

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db, { name: 'Acme Audit' });
  const other = await createCompany(ctx.db, { name: 'Other Audit' });
  const made = await createAdmin(ctx.db, acme.id);
  adminId = made.id;
  adminEmail = made.email;
  await expect(signIn(ctx.app, adminEmail, 'Wrong-password-1!')).rejects.toThrow();
  admin = await signIn(ctx.app, adminEmail);
  stranger = await signIn(ctx.app, (await createAdmin(ctx.db, other.id)).email);
}, 120_000);
afterAll(() => ctx?.close());

describe('console Audit log', () => {
  it('lists sign-ins and failed sign-ins as the console user, linked from the navigation', async () => {
    const res = await admin.get(PAGE);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('href="/console/audit-log"');
    expect(res.body).toContain('console.signed_in');
    expect(res.body).toContain('console.sign_in_failed');
    expect(res.body).toContain(`console_user ${adminId}`);
    expect(res.body).toContain(adminEmail);
  });

  it('filters, and shows an update as a diff', async () => {
    const user = await createUserViaApi(ctx.app, acme, { base_salary: 300000 });
    expect((await as(ctx.app, acme).put(`/api/users/${user.id}`, { base_salary: 310000 })).statusCode).toBe(200);
    const res = await admin.get(`${PAGE}?action=user.*&target_id=${user.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('user.updated');
    expect(res.body).toMatch(/<th scope="row">base_salary<\/th><td><del>300000[.0]*<\/del><\/td><td><ins>310000[.0]*<\/ins>/);
    expect(res.body).not.toContain('console.signed_in');
  });

  it('shows a bad filter on the page, and another company sees none of these events', async () => {
    const bad = await admin.get(`${PAGE}?actor_type=robot`);
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('role="alert"');
    const theirs = await stranger.get(PAGE);
    expect(theirs.body).not.toContain(adminEmail);
  });
  // Last: it replaces the company's API token the other tests use.
  it('records a console change as the console user', async () => {
    const res = await admin.post('/console/security/api/generate', { scopes: 'all', confirm: 'yes' });
    expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(400);
    const [event] = (await admin.get(`${PAGE}?action=token.regenerated`)).body.split('<tbody>')[1].split('</tr>');
    expect(event).toContain(`console_user ${adminId}`);
  });
});
