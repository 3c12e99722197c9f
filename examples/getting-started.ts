// The getting-started walk-through (docs/getting-started.md) with the typed client, end to end
// against a running server: an employee, a run of them, its approval, the wallet topped up if short,
// the payment, the payslip PDF, and the payroll_run.paid webhook verified by a local receiver.
//
//   BASE_URL=http://127.0.0.1:3000 TOKEN=pk_… npx tsx examples/getting-started.ts
//
// Optional: APPROVER_EMAIL (default: the first active administrator the user list shows),
// CREATED_BY_EMAIL (the run's maker; must differ from the approver), DOMAIN (the employee's e-mail
// domain; default: the approver's), REDIRECT_URL (where a top-up's checkout returns; default
// BASE_URL, always allowed), WEBHOOK_URL (a public URL forwarding to WEBHOOK_PORT, for a server that
// refuses http or private addresses; default: this machine's receiver itself), OUT_DIR (the payslip;
// default the temp directory), WAIT_SECONDS (for each background step; default 600).
// It prints each step, then `RESULT {json}` on its last line. Exit 1 with the API's answer on a refusal.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createPayrollClient,
  idempotencyKey,
  PayrollApiError,
  type PayrollRun,
  paginate,
  paginateUsers,
  unwrap,
  withIdempotencyKey,
} from '../clients/typescript/src/index.js';
import { startWebhookReceiver } from './webhook-receiver.js';

const env = (name: string) => process.env[name]?.trim() || undefined;
const BASE_URL = env('BASE_URL');
const TOKEN = env('TOKEN');
if (!BASE_URL || !TOKEN) {
  console.error('Set BASE_URL (e.g. http://127.0.0.1:3000) and TOKEN (the company API token, pk_…).');
  process.exit(2);
}
const WAIT_MS = Number(env('WAIT_SECONDS') ?? 600) * 1000;
const client = createPayrollClient({ baseUrl: BASE_URL, token: TOKEN });
const step = (n: string, text: string) => console.log(`${n}. ${text}`);

/** Polls `read` every second until it answers something, for at most WAIT_SECONDS. */
async function waitFor<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${WAIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** Naira amounts arrive as JSON numbers exact to the kobo; compared here as integer kobo. */
const kobo = (naira: number) => Math.round(naira * 100);
const naira = (k: number) => `${Math.floor(k / 100)}.${String(k % 100).padStart(2, '0')}`;

const getRun = async (id: string): Promise<PayrollRun> =>
  unwrap(await client.GET('/api/payroll-runs/{id}', { params: { path: { id } } })).run;

async function main() {
  // 1. The token is BASE_URL's and TOKEN's. Who approves: an active administrator of the company.
  let approver = env('APPROVER_EMAIL');
  let domain = env('DOMAIN');
  if (!approver || !domain) {
    for await (const user of paginateUsers(client)) {
      const admin = user.roles.some((role) => role === 'admin' || role === 'super-admin');
      if (admin && user.is_active && !user.is_suspended && user.personal_email !== env('CREATED_BY_EMAIL')) {
        approver ??= user.personal_email;
        domain ??= user.email.split('@')[1];
        break;
      }
    }
  }
  if (!approver || !domain) throw new Error('No active administrator found: set APPROVER_EMAIL and DOMAIN.');
  step('1', `token accepted; the approver will be ${approver}`);

  // 7 first: the endpoint must exist before the payment for its event to be delivered.
  const receiver = await startWebhookReceiver(Number(env('WEBHOOK_PORT') ?? 0));
  const registered = await client.POST('/api/webhook-endpoints', {
    body: { url: env('WEBHOOK_URL') ?? receiver.localUrl, events: ['payroll_run.paid'], description: 'examples/getting-started.ts' },
  });
  const endpoint = registered.data;
  if (endpoint) {
    receiver.useSecret(endpoint.secret);
    step('7a', `webhook endpoint ${endpoint.endpoint.id} registered for payroll_run.paid at ${endpoint.endpoint.url}`);
  } else {
    // A server in production refuses http and private addresses (docs/webhooks.md).
    step('7a', `webhooks skipped, the endpoint was refused: ${JSON.stringify(registered.error)}`);
    console.log('    (a development server takes it with WEBHOOK_ALLOW_HTTP=true and WEBHOOK_ALLOW_PRIVATE_NETWORKS=true;');
    console.log('    otherwise set WEBHOOK_URL to a public https URL that forwards to WEBHOOK_PORT)');
  }

  try {
    // 2. An employee (a new address each time, so the example can run again).
    const tag = idempotencyKey().slice(0, 8);
    const { user } = unwrap(
      await client.POST('/api/users', {
        body: {
          first_name: 'Chiamaka',
          last_name: 'Okafor',
          personal_email: `chiamaka.okafor+${tag}@example.com`,
          domain_name: domain,
          user_types: 'Full-time',
          start_date: '2024-03-01',
          base_salary: '350000.00',
          allowances: '75000.00',
          bank_name: 'Guaranty Trust Bank',
          account_number: '2119371247',
          is_active: true,
        },
      }),
    );
    step('2', `employee ${user.id} (${user.employee_id}) created`);

    // 3. A run of that employee for May 2025.
    const created = unwrap(
      await client.POST('/api/payroll-runs', {
        body: {
          pay_period_start: '2025-05-01',
          pay_period_end: '2025-05-31',
          payment_date: '2025-05-28',
          user_ids: [user.id],
          ...(env('CREATED_BY_EMAIL') ? { created_by_email: env('CREATED_BY_EMAIL') } : {}),
        },
      }),
    );
    const runId = created.run.id;
    step('3', `run ${runId} created: net pay ₦${created.run.totals.net_pay}`);

    // 4. Approval: at once when the company lets its token approve, else by the named person in the console.
    const approval = await client.POST('/api/payroll-runs/{id}/approve', {
      params: { path: { id: runId } },
      body: { approver_email: approver },
    });
    const approved = unwrap(approval);
    if (approval.response.status === 202 && 'approval_request' in approved) {
      step(
        '4',
        `approval requested of ${approved.approval_request.approver_email} (e-mailed a link); any administrator but the run's maker may also approve it at ${BASE_URL}/console/payroll/${runId}; waiting up to ${WAIT_MS / 1000} s`,
      );
      await waitFor('the approval', async () => ((await getRun(runId)).status === 'approved' ? true : undefined));
    }
    step('4', `run ${runId} approved`);

    // 5. Pay: top the wallet up if it is short (the sandbox checkout is answered here), then pay once.
    const need = kobo((await getRun(runId)).totals.net_pay);
    const balance = kobo(unwrap(await client.GET('/api/wallet/balance')).balance);
    if (balance < need) {
      const amount = naira(Math.max(need - balance, 100_00));
      const topUp = unwrap(
        await client.POST('/api/wallet/top-up', {
          body: { amount, customer_email: 'finance@example.com', redirect_url: env('REDIRECT_URL') ?? `${BASE_URL}/` },
        }),
      );
      const checkout = new URL(topUp.checkoutUrl);
      if (checkout.pathname.startsWith('/sandbox/checkout/')) {
        const paid = await fetch(new URL(`${checkout.pathname}${checkout.search}`, BASE_URL), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'outcome=success',
          redirect: 'manual',
        });
        if (paid.status !== 303) throw new Error(`sandbox checkout: ${paid.status}`);
        step(
          '5a',
          `wallet short by ₦${naira(need - balance)}: sandbox top-up ${topUp.transactionReference} of ₦${amount} paid; waiting for its verification`,
        );
      } else {
        step('5a', `wallet short by ₦${naira(need - balance)}: pay ₦${amount} at ${topUp.checkoutUrl}; waiting`);
      }
      const status = await waitFor('the top-up', async () => {
        const answer = unwrap(
          await client.GET('/api/wallet/transaction/status', { params: { query: { transaction_reference: topUp.transactionReference } } }),
        );
        return answer.transaction_status === 'pending' ? undefined : answer.transaction_status;
      });
      if (status !== 'success') throw new Error(`top-up ${topUp.transactionReference} ended ${status}`);
    }
    // The same key on every retry of this payment: the server replays the first answer, never pays twice.
    const payment = unwrap(
      await client.POST('/api/payroll-runs/{id}/pay', { params: { path: { id: runId } }, body: {}, ...withIdempotencyKey() }),
    );
    step('5', `payment started (${payment.run.status}); waiting for the transfers to settle`);
    const settled = await waitFor('the transfers', async () => {
      const run = await getRun(runId);
      return ['paid', 'partially_paid', 'failed'].includes(run.status) ? run : undefined;
    });
    step('5', `run ${runId} ${settled.status}: ${settled.counts.paid} paid, ${settled.counts.failed} failed`);

    // 6. The payslip of the employee's paystub (the Laravel-paginated list of the run's paystubs).
    let paystubId: number | undefined;
    for await (const paystub of paginate(client, '/api/paystubs', { query: { transaction_id: runId } })) paystubId ??= paystub.id;
    if (paystubId === undefined) throw new Error(`run ${runId} has no paystub`);
    const pdf = unwrap(
      await client.GET('/api/paystubs/{id}/payslip', { params: { path: { id: String(paystubId) } }, parseAs: 'arrayBuffer' }),
    );
    const file = path.join(env('OUT_DIR') ?? os.tmpdir(), `payslip-${paystubId}.pdf`);
    fs.writeFileSync(file, Buffer.from(pdf));
    step('6', `payslip of paystub ${paystubId} saved to ${file} (${pdf.byteLength} bytes)`);

    // 7. The run's payroll_run.paid, as delivered to the receiver and verified there.
    const event = endpoint && (await receiver.waitFor((e) => e.type === 'payroll_run.paid' && e.data.id === runId, WAIT_MS));
    if (event) step('7', `webhook ${event.type} for ${runId} received and its signature verified`);
    const result = { run: runId, status: settled.status, paystub: paystubId, payslip: file, webhook: event ? event.type : null };
    console.log(`RESULT ${JSON.stringify(result)}`);
  } finally {
    if (endpoint) await client.DELETE('/api/webhook-endpoints/{id}', { params: { path: { id: endpoint.endpoint.id } } });
    await receiver.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof PayrollApiError ? `refused: ${error.message}` : error);
  process.exit(1);
});
