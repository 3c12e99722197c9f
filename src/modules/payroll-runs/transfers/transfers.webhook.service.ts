// Paystack's transfer webhooks (transfer.success, transfer.failed, transfer.reversed), handed over
// by the wallet's POST /webhooks/paystack once their signature checked out (the wallet module
// receives this handler from createModules: it never imports payroll runs). A signed event is
// trusted as Paystack's word, but only for a reference that is one of our Paystack transfers and
// only when its amount is the transfer's, to the kobo; otherwise nothing changes. Settlement is the
// jobs' own conditional step (settleTransfers), so duplicates, late events and a racing verify job
// settle, refund and e-mail once.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/client.js';
import { isRecord } from '../../../platform/guards.js';
import type { Mailer } from '../../../platform/mail/outbox.js';
import { toKobo } from '../../../tax-engine/money.js';
import type { PayslipLinks } from '../../paystubs/index.js';
import { fromPaystackReference, stateOf } from './paystack-transfers.provider.js';
import type { Outcome } from './transfers.repo.js';
import { transfersRepo } from './transfers.repo.js';
import { settleTransfers } from './transfers.settle.service.js';
import type { WebhookPulse } from './webhook-pulse.service.js';

const EVENT_STATUS: Record<string, string> = {
  'transfer.success': 'success',
  'transfer.failed': 'failed',
  'transfer.reversed': 'reversed',
};

/** A Paystack amount: an integer number of kobo, as a number or a string of digits. */
const kobo = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value)
    ? value
    : typeof value === 'string' && /^\d{1,15}$/.test(value)
      ? Number(value)
      : undefined;

export type TransferEventHandler = (event: string, data: unknown, log: FastifyBaseLogger) => Promise<void>;

export function createTransferWebhook(deps: {
  db: Db;
  mailer: Mailer;
  payslipLinks: PayslipLinks;
  webhooks?: WebhookPulse;
}): TransferEventHandler {
  return async (event, data, log) => {
    const status = EVENT_STATUS[event];
    if (!status || !isRecord(data)) return;
    const reference = fromPaystackReference(data.reference);
    const row = reference ? await transfersRepo.findByReference(deps.db, reference) : undefined;
    if (!reference || !row || row.provider !== 'paystack') {
      log.info({ event, reference: data.reference }, 'Paystack transfer event for no transfer of ours; ignored');
      return;
    }
    const amount = kobo(data.amount);
    if (amount === undefined || BigInt(amount) !== toKobo(row.amount)) {
      log.warn({ event, reference, amount: data.amount }, 'Paystack transfer event with an amount that is not the transfer’s; ignored');
      return;
    }
    if (status === 'success' && row.status === 'failed') {
      // Failed (and refunded) here, yet paid at Paystack (an OTP finalized on the dashboard, say):
      // states never move back; an operator reconciles (docs/payroll-runs.md).
      log.error({ reference, runId: row.run_id }, 'Paystack paid a salary transfer that had failed and been refunded; reconcile by hand');
    }
    const state = stateOf(reference, status);
    if (state.status === 'pending' || state.status === 'unknown') return;
    const outcome: Outcome =
      state.status === 'failed'
        ? { reference, ok: false, reason: state.reason, reversed: state.reversed }
        : { reference, ok: true, reason: null };
    await settleTransfers(deps, row.company_id, row.run_id, [outcome]);
    deps.webhooks?.beat(row.run_id);
  };
}
