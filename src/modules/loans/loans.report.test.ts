// GET /api/loans/report through HTTP (docs/payroll.md, "Loans report"): after a paid run, one
// loan repaid in part with interest, one whose transfer failed (nothing repaid), one settled early
// and one written off; each line reconciles (principal = repaid + settled + written off + balance),
// each total is the sum of its column to the kobo, the filters and the CSV agree with the JSON,
// and another company sees none of it.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { drainJobs, fundWallet, runBody, setBankAccounts } from '../../../test/helpers/payroll-runs.js';
import { queryRows } from '../../db/client.js';
import { columnToKobo, koboToString } from '../../tax-engine/money.js';

let ctx: TestContext;
let company: TestCompany;
const loanOf: Record<string, number> = {};
type Line = Record<string, string | number | null>;

beforeAll(async () => {
  ctx = await createTestApp({ sandboxTransferDelaySeconds: 0 });
  company = await createCompany(ctx.db, { name: 'Report Ltd', runApproval: 'token' });
  const [boss] = await createUsers(ctx.db, company.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
  const [ada, chidi, efe, femi] = await createUsers(ctx.db, company.id, [
    { firstName: 'Ada', lastName: 'Obi', baseSalary: '300000.00' },
    { firstName: 'Chidi', lastName: 'Eze', baseSalary: '300000.00' },
    { firstName: 'Efe', lastName: 'Ade', baseSalary: '300000.00' },
    { firstName: 'Femi', lastName: 'Ojo', baseSalary: '300000.00' },
  ]);
  await setBankAccounts(ctx.db, [ada.id, efe.id, femi.id]);
  await setBankAccounts(ctx.db, [chidi.id], '9990000001'); // the sandbox refuses it: nothing repaid
  const api = as(ctx.app, company);
  const give = async (name: string, userId: number, body: Record<string, unknown>) => {
    const res = await api.post(`/api/users/${userId}/loans`, { kind: 'loan', start_period: '2026-03', ...body });
    expect(res.statusCode, res.body).toBe(201);
    loanOf[name] = res.json().loan.id;
  };
  await give('ada', ada.id, { principal: '100000', instalment: '40000', interest_rate_annual: '12' });
  await give('chidi', chidi.id, { principal: '100000', instalment: '40000' });
  await give('efe', efe.id, { principal: '50000', instalment: '10000', start_period: '2026-06' });
  await give('femi', femi.id, { principal: '20000.50', instalment: '5000', start_period: '2026-06' });
  await fundWallet(ctx.app, ctx.db, company, 5_000_000);
  const run = await api.post('/api/payroll-runs', runBody());
  expect(run.statusCode, run.body).toBe(201);
  const runId = run.json().run.id as string;
  expect((await api.post(`/api/payroll-runs/${runId}/approve`, { approver_email: boss.email })).statusCode).toBe(200);
  expect((await api.post(`/api/payroll-runs/${runId}/pay`)).statusCode).toBe(202);
  await drainJobs(ctx.app);
  expect((await api.post(`/api/loans/${loanOf.efe}/settle`, {})).statusCode).toBe(200);
  expect((await api.post(`/api/loans/${loanOf.femi}/write-off`, {})).statusCode).toBe(200);
}, 180_000);
afterAll(() => ctx?.close());

const report = async (query = '') => {
  const res = await as(ctx.app, company).get(`/api/loans/report${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { message: string; loans: number; totals: Record<string, string>; data: Line[] };
};
const AMOUNTS = ['principal', 'repaid_principal', 'interest_paid', 'settled', 'written_off', 'balance'];
const kobo = (value: unknown) => columnToKobo(String(value));

describe('GET /api/loans/report', () => {
  it('shows each loan with what paid paystubs repaid, what was settled or written off and what is owed', async () => {
    const answer = await report();
    expect(answer.message).toBe('Loans report retrieved successfully.');
    expect(answer.loans).toBe(4);
    const by = Object.fromEntries(answer.data.map((line) => [line.loan_id, line]));
    // 12 % a year on 100,000: 1,000 of interest in March with the 40,000 instalment.
    expect(by[loanOf.ada]).toMatchObject({
      name: 'Ada Obi',
      status: 'active',
      repayments: 1,
      last_repayment_period: '2026-03',
      principal: '100000.00',
      repaid_principal: '40000.00',
      interest_paid: '1000.00',
      balance: '60000.00',
    });
    expect(by[loanOf.chidi]).toMatchObject({ repayments: 0, last_repayment_period: null, repaid_principal: '0.00', balance: '100000.00' });
    expect(by[loanOf.efe]).toMatchObject({ status: 'paid_off', settled: '50000.00', written_off: '0.00', balance: '0.00' });
    expect(by[loanOf.femi]).toMatchObject({ status: 'written_off', settled: '0.00', written_off: '20000.50', balance: '0.00' });
    // Each line reconciles, and each total is the sum of its column to the kobo.
    for (const line of answer.data) {
      expect(kobo(line.repaid_principal) + kobo(line.settled) + kobo(line.written_off) + kobo(line.balance)).toBe(kobo(line.principal));
    }
    for (const amount of AMOUNTS) {
      expect(answer.totals[amount]).toBe(koboToString(answer.data.reduce((sum, line) => sum + kobo(line[amount]), 0n)));
    }
    // The balances agree with the loans themselves.
    const stored = await queryRows<{ id: number; balance: string }>(
      ctx.db,
      sql`SELECT id, balance::text AS balance FROM loans WHERE company_id = ${company.id}`,
    );
    for (const row of stored) expect(by[row.id].balance).toBe(row.balance);
  });

  it('filters by status and kind, and refuses an unknown format or filter', async () => {
    expect((await report('?status=active')).data.map((line) => line.loan_id).sort()).toEqual([loanOf.ada, loanOf.chidi].sort());
    expect((await report('?status=written_off')).totals.written_off).toBe('20000.50');
    expect((await report('?kind=advance')).loans).toBe(0);
    const api = as(ctx.app, company);
    const format = await api.get('/api/loans/report?format=pdf');
    expect([format.statusCode, format.json()]).toEqual([422, { error: { format: ['The format must be one of: json, csv.'] } }]);
    expect((await api.get('/api/loans/report?status=open')).statusCode).toBe(422);
  });

  it('answers the same lines and a Total line as CSV', async () => {
    const json = await report();
    const res = await as(ctx.app, company).get('/api/loans/report?format=csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="loans-report.csv"');
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe(
      'loan_id,employee_id,name,kind,status,start_period,instalment,interest_rate_annual,repayments,last_repayment_period,principal,repaid_principal,interest_paid,settled,written_off,balance',
    );
    expect(lines).toHaveLength(json.loans + 2);
    expect(lines.at(-1)).toBe(`Total,,,,,,,,,,${AMOUNTS.map((amount) => json.totals[amount]).join(',')}`);
    const ada = json.data.find((line) => line.loan_id === loanOf.ada) as Line;
    expect(lines).toContain(
      [
        ada.loan_id,
        ada.employee_id,
        'Ada Obi',
        'loan',
        'active',
        '2026-03',
        '40000.00',
        '12',
        1,
        '2026-03',
        ...AMOUNTS.map((a) => ada[a]),
      ].join(','),
    );
  });

  it("another company sees none of this company's loans", async () => {
    const other = await createCompany(ctx.db);
    const res = await as(ctx.app, other).get('/api/loans/report');
    expect(res.json()).toMatchObject({ loans: 0, data: [], totals: { principal: '0.00', balance: '0.00' } });
  });
});
