// Settlement and loans (docs/payroll.md, "Loans and salary advances"): a paid transfer reversed
// after success owes the loan's principal again, exactly once however often the reversal comes,
// and a loan paid off by that repayment is active again.
import { sql } from 'drizzle-orm';
import { createUsers } from '../../../../test/helpers/factories.js';
import { describe, expect, test as shared } from '../../../../test/helpers/fixtures.js';
import { drainJobs, fundWallet, runBody, setBankAccounts } from '../../../../test/helpers/payroll-runs.js';
import { queryRows } from '../../../db/client.js';
import { createPayslipLinks } from '../../paystubs/index.js';
import { settleTransfers } from './transfers.settle.service.js';

// Transfers settle at once; the fixture company's token approves its runs.
const test = shared.extend('appConfig', { scope: 'file' }, { sandboxTransferDelaySeconds: 0 });

describe('a reversal after success', () => {
  test('restores the balance once and reopens a loan paid off by the reversed repayment', async ({ ctx, company, api }) => {
    const [boss] = await createUsers(ctx.db, company.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
    const [ada] = await createUsers(ctx.db, company.id, [{ baseSalary: '300000.00' }]);
    await setBankAccounts(ctx.db, [ada.id]);
    const given = await api.post(`/api/users/${ada.id}/loans`, {
      kind: 'loan',
      principal: '30000',
      instalment: '30000',
      start_period: '2026-03',
    });
    expect(given.statusCode, given.body).toBe(201);
    const loanId = given.json().loan.id;
    await fundWallet(ctx.app, ctx.db, company, 1_000_000);
    const run = (await api.post('/api/payroll-runs', runBody())).json().run.id;
    expect((await api.post(`/api/payroll-runs/${run}/approve`, { approver_email: boss.email })).statusCode).toBe(200);
    expect((await api.post(`/api/payroll-runs/${run}/pay`)).statusCode).toBe(202);
    await drainJobs(ctx.app);
    expect((await api.get(`/api/loans/${loanId}`)).json().loan).toMatchObject({ balance: '0.00', status: 'paid_off' });

    const [stub] = await queryRows<{ reference: string }>(
      ctx.db,
      sql`SELECT payment_reference AS reference FROM paystubs WHERE transaction_id = ${run}`,
    );
    const deps = { db: ctx.db, mailer: ctx.app.deps.mailer, payslipLinks: createPayslipLinks(ctx.app.deps.config.publicUrl) };
    const outcome = { reference: stub.reference, ok: false, reason: 'reversed', reversed: true };
    await settleTransfers(deps, company.id, run, [outcome]);
    await settleTransfers(deps, company.id, run, [outcome]); // repeated: moves nothing
    expect((await api.get(`/api/loans/${loanId}`)).json().loan).toMatchObject({ balance: '30000.00', status: 'active' });
  }, 120_000); // the file's app is built within the first test's time
});
