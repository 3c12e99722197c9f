// Approval by a person, and one regular salary per person per period (docs/payroll-runs.md,
// "Approval" and "One salary per period"), through HTTP on a real database: a token's approve in
// `person` mode only requests (202, e-mail, the run stays draft), creator and approver compared as
// users whatever e-mail names them, no route lets a token switch its own company to `token`,
// overlapping salaries refused at approval (409), and periods that are not one pay period refused
// at creation (422). The console side (approving, the e-mailed link) is in src/web/run-approval.web.test.ts.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { paystubItem, postPaystubs } from '../../../../test/helpers/payroll.js';
import { runBody, setBankAccounts } from '../../../../test/helpers/payroll-runs.js';
import { queryRows } from '../../../db/client.js';

let ctx: TestContext;

const NOT_CREATOR = { error: { approver_email: ['The approver must be a different administrator from the creator.'] } };

async function company(runApproval?: 'person' | 'token', salaries = ['300000.00', '200000.00']) {
  const co = await createCompany(ctx.db, runApproval ? { runApproval } : {});
  const [maker, checker] = await createUsers(ctx.db, co.id, [
    { firstName: 'Adaeze', lastName: 'Okonkwo', roles: ['admin'], baseSalary: '0', personalEmail: `adaeze.okonkwo.${co.id}@demo.test` },
    { firstName: 'Bayo', lastName: 'Checker', roles: ['admin'], baseSalary: '0' },
  ]);
  const staff = await createUsers(
    ctx.db,
    co.id,
    salaries.map((baseSalary) => ({ baseSalary })),
  );
  await setBankAccounts(
    ctx.db,
    staff.map((u) => u.id),
  );
  return { co, maker, checker, staff, api: as(ctx.app, co) };
}

async function draft(co: TestCompany, body: Record<string, unknown> = {}) {
  const res = await as(ctx.app, co).post('/api/payroll-runs', runBody(body));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().run as { id: string; created_by_user_id: number | null };
}

const outboxTo = (address: string) =>
  queryRows<{ subject: string; text: string }>(ctx.db, sql`SELECT subject, text FROM outbox WHERE "to" = ${address} ORDER BY id`);
const runStatus = async (co: TestCompany, id: string) => (await as(ctx.app, co).get(`/api/payroll-runs/${id}`)).json().run.status;

beforeAll(async () => {
  ctx = await createTestApp({ sandboxTransferDelaySeconds: 0 });
});
afterAll(() => ctx?.close());

describe('creator and approver are users, whatever e-mail names them', () => {
  it('refuses the creator approving their own run by their personal e-mail in another case, in both modes', async () => {
    for (const mode of ['token', 'person'] as const) {
      const { co, maker, api } = await company(mode);
      const run = await draft(co, { created_by_email: maker.email });
      expect(run.created_by_user_id).toBe(maker.id);
      const res = await api.post(`/api/payroll-runs/${run.id}/approve`, { approver_email: maker.personalEmail.toUpperCase() });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toEqual(NOT_CREATOR);
      // Named by the personal e-mail at creation, by the company e-mail at approval: the same user.
      const other = await draft(co, {
        created_by_email: maker.personalEmail.toUpperCase(),
        pay_period_start: '2026-04-01',
        pay_period_end: '2026-04-30',
      });
      expect((await api.post(`/api/payroll-runs/${other.id}/approve`, { approver_email: maker.email })).json()).toEqual(NOT_CREATOR);
      expect(await runStatus(co, run.id)).toBe('draft');
    }
  });

  it('422 on created_by_email when it names nobody of the company; nothing is written', async () => {
    const { co, api } = await company('token');
    const stranger = await company('token');
    const before = await queryRows<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM payroll_runs WHERE company_id = ${co.id}`);
    for (const email of ['maker@example.test', stranger.maker.email]) {
      const res = await api.post('/api/payroll-runs', runBody({ created_by_email: email }));
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ error: { created_by_email: ['The created by email must be the e-mail of a user of the company.'] } });
    }
    expect(await queryRows(ctx.db, sql`SELECT count(*)::int AS n FROM payroll_runs WHERE company_id = ${co.id}`)).toEqual(before);
  });
});

describe('run_approval: person (the default): a token only requests approval', () => {
  it('answers 202 with the request, e-mails the approver a 72-hour link, keeps the run draft; a later request replaces it', async () => {
    const { co, maker, checker, api } = await company();
    const run = await draft(co, { created_by_email: maker.email });
    const res = await api.post(`/api/payroll-runs/${run.id}/approve`, { approver_email: checker.email.toUpperCase() });
    expect(res.statusCode, res.body).toBe(202);
    const body = res.json();
    expect(body.message).toBe('Approval requested.');
    expect(body.run).toMatchObject({ id: run.id, status: 'draft', approved_by_email: null, approved_via: null, approved_by_user_id: null });
    expect(body.approval_request.approver_email).toBe(checker.email);
    const hours = (Date.parse(body.approval_request.expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(71);
    expect(hours).toBeLessThanOrEqual(72);
    const [mail] = await outboxTo(checker.email);
    expect(mail.subject).toBe(`Please approve payroll run ${run.id}`);
    expect(mail.text).toMatch(new RegExp(`\\n${ctx.app.deps.config.publicUrl}/console/payroll/${run.id}/approval/[\\w-]{43}\\n`));
    expect(mail.text).toContain(`Sign in to the console as ${checker.email}`);
    expect(await runStatus(co, run.id)).toBe('draft');

    const again = await api.post(`/api/payroll-runs/${run.id}/approve`, { approver_email: checker.personalEmail });
    expect(again.statusCode).toBe(202);
    const requests = await queryRows<{ approver_email: string }>(
      ctx.db,
      sql`SELECT approver_email FROM payroll_run_approval_requests WHERE company_id = ${co.id} AND run_id = ${run.id}`,
    );
    expect(requests).toEqual([{ approver_email: checker.personalEmail }]);
    expect(await outboxTo(checker.personalEmail)).toHaveLength(1);

    // Cancelling the run ends its request (the link stops working); a cancelled run is not requested again.
    expect((await api.post(`/api/payroll-runs/${run.id}/cancel`)).statusCode).toBe(200);
    expect(await queryRows(ctx.db, sql`SELECT 1 FROM payroll_run_approval_requests WHERE run_id = ${run.id}`)).toEqual([]);
    const late = await api.post(`/api/payroll-runs/${run.id}/approve`, { approver_email: checker.email });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ error: 'Only a draft run can be approved.' });
  });

  it('a token that creates a fresh admin and names it gets only a request: the run stays draft', async () => {
    const { co, maker, api } = await company();
    const run = await draft(co, { created_by_email: maker.email });
    const fresh = await api.post('/api/users', {
      first_name: 'Fresh',
      last_name: 'Admin',
      personal_email: `fresh.${co.id}@elsewhere.test`,
      domain_name: co.domain,
      user_types: 'Full-time',
      start_date: '2024-01-01',
      roles: ['admin'],
      is_active: true,
    });
    expect(fresh.statusCode, fresh.body).toBeLessThan(300);
    const freshEmail = (fresh.json().user ?? fresh.json()).email as string;
    const res = await api.post(`/api/payroll-runs/${run.id}/approve`, { approver_email: freshEmail });
    expect(res.statusCode, res.body).toBe(202);
    expect(await runStatus(co, run.id)).toBe('draft');
  });

  it('still refuses a stranger, a non-admin and the creator with 422 (nothing requested)', async () => {
    const { co, maker, staff, api } = await company();
    const other = await company();
    const run = await draft(co, { created_by_email: maker.email });
    const approve = (email: string) => api.post(`/api/payroll-runs/${run.id}/approve`, { approver_email: email });
    expect((await approve(maker.personalEmail)).json()).toEqual(NOT_CREATOR);
    for (const email of [staff[0].email, other.checker.email]) {
      expect((await approve(email)).json()).toEqual({
        error: { approver_email: ['The approver must be an active admin of the company.'] },
      });
    }
    expect(await queryRows(ctx.db, sql`SELECT 1 FROM payroll_run_approval_requests WHERE run_id = ${run.id}`)).toEqual([]);
  });
});

describe('run_approval: who may set it', () => {
  it('no route lets a token switch its own company to token; the parent sets it on a child (C2/C4, shown by C3)', async () => {
    const { co, maker, checker, api } = await company();
    // C4 reaches only companies below the caller: its own company is not found, and nothing changes.
    const own = await api.put(`/api/companies/${co.id}`, { run_approval: 'token' });
    expect(own.statusCode).toBe(404);
    const [row] = await queryRows<{ run_approval: string }>(ctx.db, sql`SELECT run_approval FROM companies WHERE id = ${co.id}`);
    expect(row.run_approval).toBe('person');
    const run = await draft(co, { created_by_email: maker.email });
    expect((await api.post(`/api/payroll-runs/${run.id}/approve`, { approver_email: checker.email })).statusCode).toBe(202);

    const child = await createCompany(ctx.db, { createdBy: co.id });
    expect((await api.get(`/api/companies/${child.id}`)).json().run_approval).toBe('person');
    const set = await api.put(`/api/companies/${child.id}`, { run_approval: 'token' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().company.run_approval).toBe('token');
    expect((await api.put(`/api/companies/${child.id}`, { run_approval: 'anyone' })).json()).toEqual({
      error: 'Validation failed.',
      messages: { run_approval: ['The selected run approval is invalid: use person or token.'] },
    });
    // The child's own token cannot touch its parent's mode either.
    expect((await as(ctx.app, child).put(`/api/companies/${co.id}`, { run_approval: 'token' })).statusCode).toBe(404);
  });

  it('in token mode the token approves at once and the run records that it did', async () => {
    const { co, maker, checker, api } = await company('token');
    const run = await draft(co, { created_by_email: maker.email });
    const res = await api.post(`/api/payroll-runs/${run.id}/approve`, { approver_email: checker.personalEmail });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().run).toMatchObject({
      status: 'approved',
      approved_via: 'token',
      approved_by_user_id: checker.id,
      approved_by_email: checker.personalEmail,
      created_by_user_id: maker.id,
    });
  });
});

describe('one regular salary per person per period', () => {
  it('refuses at creation a period that is not one pay period of the company (422 on pay_period_end)', async () => {
    const { api } = await company('token');
    for (const [start, end, expected] of [
      ['2026-11-02', '2026-11-30', '2026-12-01'],
      ['2026-12-05', '2026-12-05', '2027-01-04'],
      ['2026-12-06', '2026-12-06', '2027-01-05'],
    ]) {
      const res = await api.post('/api/payroll-runs', runBody({ pay_period_start: start, pay_period_end: end, payment_date: end }));
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toEqual({
        error: {
          pay_period_end: [`The pay period must be one monthly pay period of the company: starting ${start}, it ends on ${expected}.`],
        },
      });
    }
    // 26 Oct to 25 Nov is one month; a weekly company pays 7 days.
    expect(
      (await api.post('/api/payroll-runs', runBody({ pay_period_start: '2026-10-26', pay_period_end: '2026-11-25' }))).statusCode,
    ).toBe(201);
    const weekly = await createCompany(ctx.db, { paymentFrequency: 'weekly' });
    await createUsers(ctx.db, weekly.id, [{ baseSalary: '50000.00' }]);
    const w = as(ctx.app, weekly);
    expect((await w.post('/api/payroll-runs', runBody({ pay_period_start: '2026-11-02', pay_period_end: '2026-11-30' }))).statusCode).toBe(
      422,
    );
    expect((await w.post('/api/payroll-runs', runBody({ pay_period_start: '2026-11-02', pay_period_end: '2026-11-08' }))).statusCode).toBe(
      201,
    );
  });

  it('refuses at approval a run whose paystubs overlap approved ones (409 with each pair), and approves nothing', async () => {
    const { co, maker, checker, staff, api } = await company('token');
    const november = await draft(co, { created_by_email: maker.email, pay_period_start: '2026-11-01', pay_period_end: '2026-11-30' });
    expect((await api.post(`/api/payroll-runs/${november.id}/approve`, { approver_email: checker.email })).statusCode).toBe(200);
    // Creation is unchanged: the second run is computed, only its approval is refused.
    const shifted = await draft(co, { created_by_email: maker.email, pay_period_start: '2026-11-02', pay_period_end: '2026-12-01' });
    const stubs = await queryRows<{ id: number; user_id: number; transaction_id: string }>(
      ctx.db,
      sql`SELECT id, user_id, transaction_id FROM paystubs WHERE company_id = ${co.id} ORDER BY user_id, id`,
    );
    const of = (runId: string, userId: number) => stubs.find((s) => s.transaction_id === runId && s.user_id === userId)?.id;
    const res = await api.post(`/api/payroll-runs/${shifted.id}/approve`, { approver_email: checker.email });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toEqual({
      error: 'Some paystubs overlap paystubs already approved or paid.',
      overlaps: staff.map((user) => ({
        paystub_id: of(shifted.id, user.id),
        user_id: user.id,
        other_paystub_id: of(november.id, user.id),
        period: { pay_period_start: '2026-11-01', pay_period_end: '2026-11-30' },
      })),
    });
    expect(await runStatus(co, shifted.id)).toBe('draft');

    // A P2 paystub of one day inside November (P2 is unchanged) cannot be approved either, in person mode as a request neither.
    const p2 = await postPaystubs(ctx.app, co, {
      paystubs: [paystubItem(staff[0].id, { pay_period_start: '2026-11-15', pay_period_end: '2026-11-15' })],
    });
    expect(p2.statusCode, p2.body).toBe(201);
    const p2Res = await api.post(`/api/payroll-runs/${p2.json().transaction_id}/approve`, { approver_email: checker.email });
    expect(p2Res.statusCode).toBe(409);
    expect(p2Res.json().overlaps).toEqual([
      expect.objectContaining({ user_id: staff[0].id, other_paystub_id: of(november.id, staff[0].id) }),
    ]);

    // Cancelling the approved run frees the period: the shifted run is approved.
    expect((await api.post(`/api/payroll-runs/${november.id}/cancel`)).statusCode).toBe(200);
    expect((await api.post(`/api/payroll-runs/${shifted.id}/approve`, { approver_email: checker.email })).statusCode).toBe(200);
  });
});
