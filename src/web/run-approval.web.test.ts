// Approval by a person in the console (docs/payroll-runs.md, "Approval"), over inject: a second
// signed-in administrator approves (approved_via console); the e-mailed link of a token's request
// leads a signed-out approver through sign-in back to the run's page, where they approve
// (email_link); the link works only for the named approver, until it expires or a later request
// replaces it, and never across companies; the Settings switch to `token` mode; an overlap is a 409 page.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../test/helpers/factories.js';
import { anonymous, as } from '../../test/helpers/http.js';
import { runBody, setBankAccounts } from '../../test/helpers/payroll-runs.js';
import { ADMIN_PASSWORD, createAdmin, csrfOf, formBody, mergeCookies, signIn, type WebClient } from '../../test/helpers/web.js';
import { queryRows } from '../db/client.js';
import { hashPassword } from '../modules/users/index.js';

let ctx: TestContext;
let acme: TestCompany;
let maker: Awaited<ReturnType<typeof createAdmin>>;
let checker: Awaited<ReturnType<typeof createAdmin>>;
let third: Awaited<ReturnType<typeof createAdmin>>;
let checkerClient: WebClient;
let thirdClient: WebClient;
let stranger: WebClient;
let month = 0;

/** A draft run of the next month, created with the token by the maker. */
async function draftRun(): Promise<string> {
  month += 1;
  const start = new Date(Date.UTC(2026, month, 1));
  const end = new Date(Date.UTC(2026, month + 1, 0));
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  const res = await as(ctx.app, acme).post(
    '/api/payroll-runs',
    runBody({ pay_period_start: iso(start), pay_period_end: iso(end), payment_date: iso(end), created_by_email: maker.email }),
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json().run.id;
}

/** Asks (with the token) `email` to approve the run; answers the path of the e-mailed link. */
async function requestApproval(id: string, email: string): Promise<string> {
  const res = await as(ctx.app, acme).post(`/api/payroll-runs/${id}/approve`, { approver_email: email });
  expect(res.statusCode, res.body).toBe(202);
  const [mail] = await queryRows<{ text: string }>(ctx.db, sql`SELECT text FROM outbox WHERE "to" = ${email} ORDER BY id DESC LIMIT 1`);
  const link = new RegExp(`(/console/payroll/${id}/approval/[\\w-]+)`).exec(mail.text)?.[1];
  expect(link).toBeDefined();
  return link as string;
}

const runOf = async (id: string) => (await as(ctx.app, acme).get(`/api/payroll-runs/${id}`)).json().run;

/** Follows the link signed out: the sign-in page, then (signed in with `next`) back to the link. */
async function signInThroughLink(link: string, email: string): Promise<WebClient> {
  const visitor = as(ctx.app, anonymous);
  const first = await visitor.get(link);
  expect(first.statusCode).toBe(303);
  expect(first.headers.location).toBe(`/console/login?next=${encodeURIComponent(link)}`);
  const login = await visitor.get(first.headers.location as string);
  expect(login.body).toContain(`name="next" value="${link}"`);
  let cookie = mergeCookies('', login.headers['set-cookie']);
  const signedIn = await visitor.post(
    '/console/login',
    formBody({ _csrf: csrfOf(login.body), email, password: ADMIN_PASSWORD, next: link }),
    {
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    },
  );
  expect(signedIn.statusCode, signedIn.body).toBe(303);
  expect(signedIn.headers.location).toBe(link);
  cookie = mergeCookies(cookie, signedIn.headers['set-cookie']);
  const page = await visitor.get(link, { headers: { cookie } });
  const client: WebClient = {
    cookie,
    csrf: csrfOf(page.body),
    get: (url) => visitor.get(url, { headers: { cookie: client.cookie } }),
    post: (url, form) =>
      visitor.post(url, formBody({ _csrf: client.csrf, ...form }), {
        headers: { cookie: client.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      }),
  };
  return client;
}

beforeAll(async () => {
  ctx = await createTestApp({ sandboxTransferDelaySeconds: 0 });
  acme = await createCompany(ctx.db, { name: 'Person Approves Ltd' });
  maker = await createAdmin(ctx.db, acme.id, { firstName: 'Ada', lastName: 'Maker' });
  checker = await createAdmin(ctx.db, acme.id, { firstName: 'Bayo', lastName: 'Checker' });
  third = await createAdmin(ctx.db, acme.id, { firstName: 'Chioma', lastName: 'Third' });
  const staff = await createUsers(ctx.db, acme.id, [{ baseSalary: '300000.00' }, { baseSalary: '250000.00' }]);
  await setBankAccounts(
    ctx.db,
    staff.map((u) => u.id),
  );
  const other = await createCompany(ctx.db, { name: 'Elsewhere Ltd' });
  stranger = await signIn(ctx.app, (await createAdmin(ctx.db, other.id)).email);
  checkerClient = await signIn(ctx.app, checker.email);
  thirdClient = await signIn(ctx.app, third.email);
}, 180_000);
afterAll(() => ctx?.close());

describe('approval by a person in the console', () => {
  it('a second signed-in administrator approves a run the token created: approved_via console', async () => {
    const id = await draftRun();
    const res = await checkerClient.post(`/console/payroll/${id}/approve`, {});
    expect(res.statusCode, res.body).toBe(303);
    expect(await runOf(id)).toMatchObject({
      status: 'approved',
      approved_via: 'console',
      approved_by_user_id: checker.id,
      approved_by_email: checker.email,
      created_by_user_id: maker.id,
    });
  });

  it('the e-mailed link: sign-in, back to the run page, approve (email_link); only the named approver, never across companies', async () => {
    const id = await draftRun();
    const link = await requestApproval(id, checker.personalEmail);
    const token = link.split('/').pop() as string;
    // Someone else of the company, and an administrator of another company, cannot use it.
    const wrong = await thirdClient.get(link);
    expect(wrong.statusCode).toBe(403);
    expect(wrong.body).toContain(`This approval link was sent to ${checker.personalEmail}`);
    expect(wrong.body).not.toContain('name="approval_token"');
    expect((await stranger.get(link)).statusCode).toBe(404);
    expect((await stranger.post(`/console/payroll/${id}/approve`, { approval_token: token })).statusCode).toBe(404);
    // A third administrator posting the secret they saw does not approve through the link.
    const thirdRes = await thirdClient.post(`/console/payroll/${id}/approve`, { approval_token: token });
    expect(thirdRes.statusCode).toBe(303);
    expect(thirdRes.headers.location).toBe(`/console/payroll/${id}?notice=link_invalid`);
    expect((await thirdClient.get(thirdRes.headers.location as string)).body).toContain('This approval link has expired or was replaced');

    const approver = await signInThroughLink(link, checker.email);
    const page = await approver.get(link);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('You were asked to approve this run.');
    expect(page.body).toContain(`<input type="hidden" name="approval_token" value="${token}">`);
    const approved = await approver.post(`/console/payroll/${id}/approve`, { approval_token: token });
    expect(approved.statusCode, approved.body).toBe(303);
    expect(approved.headers.location).toBe(`/console/payroll/${id}?done=approved`);
    expect(await runOf(id)).toMatchObject({ status: 'approved', approved_via: 'email_link', approved_by_user_id: checker.id });
    // Used: the link is gone, the page says so.
    const after = await approver.get(link);
    expect(after.statusCode).toBe(410);
    expect(after.body).toContain('This approval link has expired or was replaced by a later request.');
  });

  it('a replaced or expired link no longer works (410), and its secret approves nothing', async () => {
    const id = await draftRun();
    const first = await requestApproval(id, checker.email);
    const second = await requestApproval(id, checker.email);
    expect((await checkerClient.get(first)).statusCode).toBe(410);
    const stale = first.split('/').pop() as string;
    const refused = await checkerClient.post(`/console/payroll/${id}/approve`, { approval_token: stale });
    expect(refused.statusCode).toBe(303);
    expect(refused.headers.location).toBe(`/console/payroll/${id}?notice=link_invalid`);
    expect((await checkerClient.get(refused.headers.location as string)).body).toContain(
      'This approval link has expired or was replaced by a later request.',
    );
    expect((await checkerClient.get(second)).statusCode).toBe(200);
    await ctx.db.execute(sql`UPDATE payroll_run_approval_requests SET expires_at = now() - interval '1 second' WHERE run_id = ${id}`);
    expect((await checkerClient.get(second)).statusCode).toBe(410);
    expect((await runOf(id)).status).toBe('draft');
  });

  it('a fresh admin made by the token approves only by signing in as themselves', async () => {
    const id = await draftRun();
    const created = await as(ctx.app, acme).post('/api/users', {
      first_name: 'Fresh',
      last_name: 'Approver',
      personal_email: 'fresh.approver@elsewhere.test',
      domain_name: acme.domain,
      user_types: 'Full-time',
      start_date: '2024-01-01',
      roles: ['admin'],
      is_active: true,
    });
    expect(created.statusCode, created.body).toBeLessThan(300);
    const fresh = (created.json().user ?? created.json()) as { id: number; email: string };
    const link = await requestApproval(id, fresh.email);
    expect((await runOf(id)).status).toBe('draft');
    // The person sets a password (as onboarding does) and proves the account by signing in.
    await ctx.db.execute(sql`UPDATE users SET password_hash = ${await hashPassword(ADMIN_PASSWORD)} WHERE id = ${fresh.id}`);
    const client = await signInThroughLink(link, fresh.email);
    expect((await client.post(`/console/payroll/${id}/approve`, { approval_token: link.split('/').pop() as string })).statusCode).toBe(303);
    expect(await runOf(id)).toMatchObject({ status: 'approved', approved_via: 'email_link', approved_by_user_id: fresh.id });
  });

  it('an overlapping run is a 409 page listing the pairs; Settings switch the company to token mode', async () => {
    month += 1;
    const start = new Date(Date.UTC(2026, month, 1)).toISOString().slice(0, 10);
    const end = new Date(Date.UTC(2026, month + 1, 0)).toISOString().slice(0, 10);
    const api = as(ctx.app, acme);
    const first = (
      await api.post('/api/payroll-runs', runBody({ pay_period_start: start, pay_period_end: end, created_by_email: maker.email }))
    ).json().run.id;
    expect((await checkerClient.post(`/console/payroll/${first}/approve`, {})).statusCode).toBe(303);
    const shiftedStart = new Date(Date.UTC(2026, month, 2)).toISOString().slice(0, 10);
    const shiftedEnd = new Date(Date.UTC(2026, month + 1, 1)).toISOString().slice(0, 10);
    const second = await api.post('/api/payroll-runs', runBody({ pay_period_start: shiftedStart, pay_period_end: shiftedEnd }));
    expect(second.statusCode, second.body).toBe(201);
    const res = await checkerClient.post(`/console/payroll/${second.json().run.id}/approve`, {});
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain('Some paystubs overlap paystubs already approved or paid.');
    expect(res.body).toContain(`(${start} to ${end})`);

    // Settings: a signed-in administrator chooses token mode; the token then approves at once.
    expect((await checkerClient.get('/console/settings')).body).toContain(
      'id="run_approval-person" name="run_approval" value="person" checked',
    );
    expect((await checkerClient.post('/console/settings/run-approval', { run_approval: 'anyone' })).statusCode).toBe(422);
    const saved = await checkerClient.post('/console/settings/run-approval', { run_approval: 'token' });
    expect(saved.headers.location).toBe('/console/settings?done=run-approval');
    expect((await checkerClient.get('/console/settings?done=run-approval')).body).toContain('value="token" checked');
    const id = await draftRun();
    const approved = await api.post(`/api/payroll-runs/${id}/approve`, { approver_email: third.email });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().run).toMatchObject({ approved_via: 'token', approved_by_user_id: third.id });
    expect((await thirdClient.get(`/console/payroll/${id}`)).body).toContain(
      'through the API token: the calling platform vouched for the approver',
    );
  });
});
