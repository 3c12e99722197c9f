// W1 top-up, W2 transaction status (both paths), and the balance. Errors use the wallet family:
// {status: "error", message} (401 and 429 keep the platform's {error}). Schemas in wallet.schemas.ts.
import type { FastifyInstance } from 'fastify';
import { typed } from '../../platform/deps.js';
import { tenantId } from '../../platform/request-context.js';
import type { TenancyMessages } from '../../platform/types.js';
import {
  BalanceAnswer,
  BalanceQuery,
  WalletErrors as errors,
  StatusAnswer,
  StatusQuery,
  TopUpAnswer,
  TopUpBody,
} from './wallet.schemas.js';
import type { WalletService } from './wallet.service.js';

const COMPANY_NOT_FOUND = 'The company you are trying to access could not be found. Please verify the company ID and try again.';
export const WALLET_TENANCY: TenancyMessages = {
  forbidden: "You do not have permission to access this company's wallet.",
  notFound: COMPANY_NOT_FOUND,
};
// W2 has no company 404 of its own; docs/reference.md, "Common rules" gives it the endpoint's 404
// message.
export const TRANSACTIONS_TENANCY: TenancyMessages = {
  forbidden: "You do not have permission to access this company's transactions.",
  notFound: 'Transaction not found.',
};

export function walletRoutes(service: WalletService) {
  return async (root: FastifyInstance): Promise<void> => {
    const app = typed(root);

    app.post(
      '/api/wallet/top-up',
      {
        config: {
          name: 'wallet.top-up',
          family: 'wallet',
          ownInputChecks: true,
          sensitive: true,
          tenancy: WALLET_TENANCY,
          internalMessage: 'An unexpected error occurred while initiating the top-up.',
        },
        // A request without a body gets the interface's "required" messages, not a schema error.
        preValidation: async (request) => {
          if (request.body === undefined || request.body === null) request.body = {};
        },
        schema: {
          tags: ['wallet'],
          summary: 'W1. Top up the wallet through the payment provider',
          body: TopUpBody,
          response: { 200: TopUpAnswer, ...errors },
        },
      },
      async (request) => service.topUp(tenantId(request), request.body, request.log),
    );

    for (const url of ['/api/wallet/transaction/status', '/api/wallet/check-transaction-status']) {
      app.get(
        url,
        {
          config: {
            name: 'wallet.transaction-status',
            family: 'wallet',
            ownInputChecks: true,
            tenancy: TRANSACTIONS_TENANCY,
            internalMessage: 'An unexpected error occurred while checking the transaction status.',
          },
          schema: {
            tags: ['wallet'],
            summary: 'W2. Status of a top-up transaction',
            querystring: StatusQuery,
            response: { 200: StatusAnswer, ...errors },
          },
        },
        async (request) => service.transactionStatus(tenantId(request), request.query.transaction_reference),
      );
    }

    app.get(
      '/api/wallet/balance',
      {
        config: {
          name: 'wallet.balance',
          family: 'wallet',
          tenancy: WALLET_TENANCY,
          internalMessage: 'An unexpected error occurred while reading the wallet balance.',
        },
        schema: {
          tags: ['wallet'],
          summary: 'Wallet balance (sum of the ledger)',
          querystring: BalanceQuery,
          response: { 200: BalanceAnswer, ...errors },
        },
      },
      async (request) => service.balance(tenantId(request)),
    );
  };
}
