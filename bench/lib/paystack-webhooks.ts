// What Paystack does after it accepts a bulk transfer: it pays each transfer and posts a signed
// `transfer.success` webhook for it to the merchant's URL (docs/payroll-runs.md, "Paystack
// Transfers", step 3). The fake Paystack of the tests (test/helpers/paystack-transfers.ts) records
// the transfers it received; this sender plays Paystack's webhook side for the paystack-scale bench.
import type { FakeTransfers } from '../../test/helpers/paystack-transfers.js';
import { type FakePaystack, paystackSignature } from '../../test/helpers/wallet.js';

export interface WebhookSender {
  /** Webhooks posted so far, and how many the server did not answer 200. */
  sent: number;
  refused: number;
  stop(): Promise<void>;
}

/**
 * Every `pollMs`, marks each received transfer paid and posts its `transfer.success` to `url`,
 * `concurrency` at a time, as Paystack would (one event per transfer).
 */
export function sendTransferWebhooks(options: {
  fake: FakePaystack;
  transfers: FakeTransfers;
  url: string;
  concurrency?: number;
  pollMs?: number;
}): WebhookSender {
  const { fake, transfers, url } = options;
  const state = { sent: 0, refused: 0 };
  let stopped = false;
  const post = async (reference: string, amount: number) => {
    const body = JSON.stringify({ event: 'transfer.success', data: { reference, amount, status: 'success', currency: 'NGN' } });
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paystack-signature': paystackSignature(fake.secret, body) },
      body,
    });
    await response.arrayBuffer();
    state.sent++;
    if (response.status !== 200) state.refused++;
  };
  const loop = (async () => {
    while (!stopped) {
      // Paid at Paystack from now on: a verify of it (the settle job's look) answers success too.
      const due = [...transfers.transfers.values()].filter((transfer) => transfer.status === 'received');
      for (const transfer of due) transfer.status = 'success';
      let next = 0;
      const worker = async () => {
        while (next < due.length) {
          const transfer = due[next++];
          await post(transfer.reference, transfer.amount);
        }
      };
      await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));
      if (due.length === 0) await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 200));
    }
  })();
  return {
    get sent() {
      return state.sent;
    },
    get refused() {
      return state.refused;
    },
    async stop() {
      stopped = true;
      await loop;
    },
  };
}
