// The wallet (docs/wallet.md) and its ledger (docs/payroll-runs.md).
import type { OperationDoc } from './types.js';

export const WALLET_OPERATIONS: Record<string, OperationDoc> = {
  'wallet.top-up': {
    description:
      'Starts a top-up through the payment provider: the answer has the checkout URL to send the payer to and the transaction reference. The wallet is credited once the provider confirms the payment. `amount` is naira, 100 to 100,000,000.',
    required: ['amount'],
    body: { amount: '500000.00', customer_email: 'finance@adebayo-logistics.ng', redirect_url: 'https://adebayo-logistics.ng/wallet/done' },
  },
  'wallet.transaction-status': { description: 'The status of a top-up by its `transaction_reference` (pending, success or failed).' },
  'wallet.balance': { description: 'The wallet’s balance: the sum of its ledger.' },
  'wallet.transactions': {
    description: 'The wallet ledger (top-ups, payroll debits and refunds), newest first, in the Laravel paginator family.',
  },
};
