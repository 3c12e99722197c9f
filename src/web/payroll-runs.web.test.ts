// The console's payroll-run forms over inject (no browser): New run, Approve, Pay, Retry, Cancel and
// their refusals (bad CSRF 403; wrong state, short balance and maker-checker: a 303 to the run page
// with `?notice=<code>`, the page saying why, with the shortfall and its Top up link), another
// company's run as the 404 page, and the status JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../test/helpers/factories.js';
import { drainJobs, fundWallet, setBankAccounts } from '../../test/helpers/payroll-runs.js';
import { ADMIN_PASSWORD, createAdmin, signIn, type WebClient } from '../../test/helpers/web.js';

let ctx: TestContext;
let acme: TestCompany;
let maker: WebClient;
let checker: WebClient;
let stranger: WebClient;
let checkerEmail: string;
let strangerEmail: string;
let staff: Awaited<ReturnType<typeof createUsers>>;

const runIdOf = (location: string | undefined) =>
  /\/console\/payroll\/(PR-\d{8}-[A-Z0-9]{6})\?done=created$/.exec(location ?? '')?.[1] ?? '';
/** A refusal after Post/Redirect/Get: a 303 to the run page with its notice code, and that page. */
async function refusedTo(client: WebClient, res: { statusCode: number; headers: Record<string, unknown> }, id: string, code: string) {
  expect(res.statusCode).toBe(303);
  expect(res.headers.location).toBe(`/console/payroll/${id}?notice=${code}`);
  const shown = await client.get(res.headers.location as string);
  expect(shown.statusCode).toBe(200);
  return shown.body;
}
/** The last day of a month, `2026-02` → `2026-02-28`. */
const monthEnd = (month: string) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);
const form = (start: string, end: string, extra: Record<string, string | string[]> = {}) => ({
  pay_period_start: start,
  pay_period_end: end,
  payment_date: end,
  include: 'all',
  ...extra,
});

beforeAll(async () => {
  ctx = await createTestApp({ walletVerifyDelaySeconds: 0, sandboxTransferDelaySeconds: 0 });
  acme = await createCompany(ctx.db, { name: 'Acme Foods' });
  const makerUser = await createAdmin(ctx.db, acme.id, { firstName: 'Ada', lastName: 'Maker' });
  const checkerUser = await createAdmin(ctx.db, acme.id, { firstName: 'Bayo', lastName: 'Checker' });
  checkerEmail = checkerUser.email;
  staff = await createUsers(ctx.db, acme.id, [
    { firstName: 'Chidi', lastName: 'Paid', baseSalary: '300000.00' },
    { firstName: 'Ngozi', lastName: 'Paid', baseSalary: '250000.50' },
    { firstName: 'Idle', lastName: 'Person', baseSalary: '100000.00', isActive: false },
  ]);
  await setBankAccounts(ctx.db, [makerUser.id, checkerUser.id, staff[0].id, staff[1].id]);
  const other = await createCompany(ctx.db, { name: 'Other Ltd' });
  const otherAdmin = await createAdmin(ctx.db, other.id);
  strangerEmail = otherAdmin.email;
  maker = await signIn(ctx.app, makerUser.email);
  checker = await signIn(ctx.app, checkerUser.email);
  stranger = await signIn(ctx.app, otherAdmin.email);
}, 180_000);
afterAll(() => ctx?.close());

describe('console payroll runs', () => {
  it('offers a New run form with this month and the active employees', async () => {
    const res = await maker.get('/console/payroll/new');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Chidi Paid');
    expect(res.body).not.toContain('Idle Person');
    expect(res.body).toContain('All eligible employees');
    expect((await maker.get('/console/payroll')).body).toContain('href="/console/payroll/new"');
  });

  it('refuses a bad New run with the messages and nothing created', async () => {
    let res = await maker.post('/console/payroll/new', form('2026-05-31', '2026-05-01'));
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('The pay period end field must be a date after or equal to pay period start.');
    expect(res.body).toContain('value="2026-05-31"');
    res = await maker.post('/console/payroll/new', form('2026-05-01', '2026-05-31', { include: 'chosen' }));
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('Tick at least one employee');
    res = await maker.post('/console/payroll/new', form('2026-05-01', '2026-05-31', { include: 'chosen', user_ids: String(staff[2].id) }));
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('No paystub could be made for this run.');
    res = await maker.post('/console/payroll/new', { ...form('2026-05-01', '2026-05-31'), _csrf: 'forged' });
    expect(res.statusCode).toBe(403);
    expect((await maker.get('/console/payroll')).body).not.toContain('2026-05-01');
  });

  it('walks draft → approved (by the other admin) → short balance → processing → paid', async () => {
    let res = await maker.post(
      '/console/payroll/new',
      form('2026-06-01', '2026-06-30', { include: 'chosen', user_ids: [String(staff[0].id), String(staff[1].id), String(staff[2].id)] }),
    );
    expect(res.statusCode).toBe(303);
    const id = runIdOf(res.headers.location as string);
    expect(id).not.toBe('');
    res = await maker.get(`/console/payroll/${id}?done=created`);
    expect(res.body).toContain('Draft run created.');
    expect(res.body).toContain('<span class="badge info">Draft</span>');
    expect(res.body).toContain('Skipped employees (1)');
    expect(res.body).toContain(`<td>Idle Person<br><span class="muted">User ${staff[2].id}</span></td>`);
    // The signed-in administrator approves as themselves: the maker is offered no approval, the
    // checker an Approve button and no choice of approver.
    expect(res.body).toContain('You created this run, so another administrator must approve it');
    expect(res.body).not.toContain(`action="/console/payroll/${id}/approve"`);
    const checkerPage = (await checker.get(`/console/payroll/${id}`)).body;
    expect(checkerPage).toContain(`action="/console/payroll/${id}/approve"`);
    expect(checkerPage).toContain(`You approve as yourself (${checkerEmail})`);
    expect(checkerPage).not.toContain('name="approver_email"');

    // The maker cannot approve their own run by posting the form, nor on a colleague's behalf even
    // with that colleague's password (the fields are not read), nor as someone of another company.
    const forms: Record<string, string>[] = [
      {},
      { approver_email: checkerEmail, approver_password: ADMIN_PASSWORD },
      { approver_email: strangerEmail },
    ];
    for (const body of forms) {
      res = await maker.post(`/console/payroll/${id}/approve`, body);
      expect(await refusedTo(maker, res, id, 'own_run')).toContain('The approver must be a different administrator from the creator.');
    }
    expect((await maker.get(`/console/payroll/${id}`)).body).toContain('<span class="badge info">Draft</span>');

    // Wrong state: paying or retrying a draft.
    res = await checker.post(`/console/payroll/${id}/pay`, {});
    expect(await refusedTo(checker, res, id, 'not_approved')).toContain('Only an approved run can be paid.');
    res = await checker.post(`/console/payroll/${id}/retry`, {});
    expect(await refusedTo(checker, res, id, 'not_retryable')).toContain('Only a failed or partially paid run can be retried.');
    // The notice's text is chosen by the server: an unknown or forged code shows nothing.
    for (const forged of ['%3Cscript%3E', 'constructor', 'Only%20a%20draft'])
      expect((await checker.get(`/console/payroll/${id}?notice=${forged}`)).body).not.toMatch(/role="alert"|&lt;script|Only a draft/);

    // Bad CSRF and another company: refused, nothing changes.
    res = await checker.post(`/console/payroll/${id}/approve`, { _csrf: maker.csrf });
    expect(res.statusCode).toBe(403);
    res = await stranger.post(`/console/payroll/${id}/approve`, {});
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('There is no payroll run with that id in your company.');
    expect((await stranger.get(`/console/payroll/${id}`)).statusCode).toBe(404);
    expect((await stranger.get(`/console/payroll/${id}/status`)).statusCode).toBe(404);
    expect((await stranger.post(`/console/payroll/${id}/cancel`, {})).statusCode).toBe(404);
    expect((await checker.post('/console/payroll/PR-20260101-NOSUCH/cancel', {})).statusCode).toBe(404);
    expect((await checker.post('/console/payroll/not-a-run/pay', {})).statusCode).toBe(404);

    res = await checker.post(`/console/payroll/${id}/approve`, {});
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/console/payroll/${id}?done=approved`);
    res = await checker.get(`/console/payroll/${id}`);
    expect(res.body).toContain('<span class="badge info">Approved</span>');
    expect(res.body).toContain(`by ${checkerEmail} <span class="muted">(in the console)</span>`);
    expect(res.body).toContain('data-shortfall');
    expect(res.body).toContain('href="/console/wallet?amount=');
    res = await checker.post(`/console/payroll/${id}/approve`, {});
    expect(await refusedTo(checker, res, id, 'not_draft')).toContain('Only a draft run can be approved.');

    // Short balance: a 303 to the run page, which says so beside the balance, the net pay, the
    // shortfall and a Top up link prefilled with it.
    res = await checker.post(`/console/payroll/${id}/pay`, {});
    const shortPage = await refusedTo(checker, res, id, 'short_balance');
    expect(shortPage).toContain('Insufficient wallet balance. Nothing was paid');
    expect(shortPage).toMatch(/data-wallet-balance>₦0\.00</);
    expect(shortPage).toMatch(/The wallet is ₦[\d,.]+ short of the run's net pay/);
    const shortfall = /wallet\?amount=([\d.]+)/.exec(shortPage)?.[1] as string;
    const wallet = await checker.get(`/console/wallet?amount=${shortfall}`);
    expect(wallet.body).toContain(`value="${shortfall}"`);

    await fundWallet(ctx.app, ctx.db, acme, 2_000_000);
    res = await checker.get(`/console/payroll/${id}`);
    expect(res.body).not.toContain('data-shortfall');
    res = await checker.post(`/console/payroll/${id}/pay`, {});
    expect(res.statusCode).toBe(303);
    res = await checker.get(`/console/payroll/${id}?done=paying`);
    expect(res.body).toContain('Payment started');
    expect(res.body).toContain('data-poll="/console/payroll/');
    expect(res.body).toContain('>Refresh</a>');
    let status = (await checker.get(`/console/payroll/${id}/status`)).json();
    expect(status.status).toBe('processing');
    expect(status.paystubs).toHaveLength(2);
    res = await checker.post(`/console/payroll/${id}/cancel`, {});
    expect(await refusedTo(checker, res, id, 'not_cancellable')).toContain('Only a draft or approved run can be cancelled.');

    await drainJobs(ctx.app);
    status = (await checker.get(`/console/payroll/${id}/status`)).json();
    expect(status).toMatchObject({ status: 'paid', counts: { paid: 2 } });
    expect(status.paystubs.map((stub: { badge: string[] }) => stub.badge)).toEqual([
      ['ok', 'Paid'],
      ['ok', 'Paid'],
    ]);
    res = await checker.get(`/console/payroll/${id}`);
    expect(res.body).not.toContain('data-poll');
    expect((await checker.get('/console/payroll')).body).toContain('<span class="badge ok">Paid</span>');
  });

  it('offers approval of a new bank account when a paystub is held, and releases it', async () => {
    let res = await maker.post(
      '/console/payroll/new',
      form('2026-08-01', '2026-08-31', { include: 'chosen', user_ids: [String(staff[0].id), String(staff[1].id)] }),
    );
    const id = runIdOf(res.headers.location as string);
    expect((await checker.post(`/console/payroll/${id}/approve`, {})).statusCode).toBe(303);
    expect((await checker.get(`/console/payroll/${id}`)).body).not.toContain('Approve new bank accounts');
    await setBankAccounts(ctx.db, [staff[0].id], '0987654321');
    res = await checker.get(`/console/payroll/${id}`);
    expect(res.body).toContain('Approve new bank accounts');
    expect(res.body).toContain('1 paystub is held');
    expect(res.body).toContain('<span data-count="held">1</span> held');
    res = await checker.post(`/console/payroll/${id}/approve`, {});
    expect(res.statusCode).toBe(303);
    res = await checker.get(`/console/payroll/${id}`);
    expect(res.body).not.toContain('Approve new bank accounts');
    expect(res.body).toContain('<span data-count="held">0</span> held');
  });

  it('cancels a draft run, and a cancelled run cannot be cancelled or approved again', async () => {
    let res = await maker.post('/console/payroll/new', form('2026-07-01', '2026-07-31'));
    const id = runIdOf(res.headers.location as string);
    res = await checker.post(`/console/payroll/${id}/cancel`, {});
    expect(res.headers.location).toBe(`/console/payroll/${id}?done=cancelled`);
    expect((await checker.get(`/console/payroll/${id}?done=cancelled`)).body).toContain('<span class="badge off">Cancelled</span>');
    res = await checker.post(`/console/payroll/${id}/cancel`, {});
    expect(await refusedTo(checker, res, id, 'not_cancellable')).toContain('Only a draft or approved run can be cancelled.');
    // The period is free again: a new run for it is made.
    res = await maker.post('/console/payroll/new', form('2026-07-01', '2026-07-31'));
    expect(res.statusCode).toBe(303);
  });

  it('sorts the runs by pay period or by creation, either way', async () => {
    const company = await createCompany(ctx.db);
    const owner = await createAdmin(ctx.db, company.id);
    const [earner] = await createUsers(ctx.db, company.id, [{ firstName: 'Sole', lastName: 'Earner', baseSalary: '200000.00' }]);
    await setBankAccounts(ctx.db, [earner.id]);
    const client = await signIn(ctx.app, owner.email);
    // Made out of period order: March, then January, then February.
    for (const month of ['03', '01', '02']) {
      const res = await client.post('/console/payroll/new', form(`2026-${month}-01`, monthEnd(`2026-${month}`)));
      expect(res.statusCode).toBe(303);
    }
    const periods = async (query: string) => {
      const res = await client.get(`/console/payroll${query}`);
      expect(res.statusCode).toBe(200);
      return { body: res.body, months: [...res.body.matchAll(/<td class="nowrap">2026-(\d\d)-01<br>/g)].map((m) => m[1]) };
    };

    const newest = await periods('');
    expect(newest.months).toEqual(['02', '01', '03']);
    expect(newest.body).toContain('Payroll runs, newest first');
    // The default order is the Created column's, descending; its link turns it round, and Pay period starts with the latest.
    expect(newest.body).toMatch(/<th scope="col" aria-sort="descending"><a href="\/console\/payroll\?sort=created&amp;order=asc"/);
    expect(newest.body).toContain('href="/console/payroll?sort=pay_period&amp;order=desc"');
    expect((await periods('?sort=created&order=asc')).months).toEqual(['03', '01', '02']);
    const latestPeriod = await periods('?sort=pay_period&order=desc');
    expect(latestPeriod.months).toEqual(['03', '02', '01']);
    expect(latestPeriod.body).toContain('Payroll runs, latest pay period first');
    expect((await periods('?sort=pay_period&order=asc')).months).toEqual(['01', '02', '03']);
    expect((await periods('?sort=pay_period')).months).toEqual(['03', '02', '01']);
    expect((await client.get('/console/payroll?sort=status')).statusCode).toBe(400);
    expect((await client.get('/console/payroll?sort=created&order=up')).statusCode).toBe(400);
  });

  it("keeps a sorted list's order on its pages", async () => {
    const company = await createCompany(ctx.db);
    const owner = await createAdmin(ctx.db, company.id);
    const [earner] = await createUsers(ctx.db, company.id, [{ firstName: 'Sole', lastName: 'Earner', baseSalary: '200000.00' }]);
    await setBankAccounts(ctx.db, [earner.id]);
    const client = await signIn(ctx.app, owner.email);
    // 21 monthly runs, January 2024 to September 2025: one more than a page.
    for (let i = 0; i < 21; i++) {
      const month = `${2024 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
      expect((await client.post('/console/payroll/new', form(`${month}-01`, monthEnd(month)))).statusCode).toBe(303);
    }
    const first = await client.get('/console/payroll?sort=pay_period&order=asc');
    expect(first.body).toContain('href="/console/payroll?page=2&amp;sort=pay_period&amp;order=asc" rel="next"');
    const second = await client.get('/console/payroll?page=2&sort=pay_period&order=asc');
    expect([...second.body.matchAll(/<td class="nowrap">(2025-\d\d-\d\d)<br>/g)].map((m) => m[1])).toEqual(['2025-09-01']);
    expect(second.body).toContain('href="/console/payroll?page=1&amp;sort=pay_period&amp;order=asc" rel="prev"');
  });
});
