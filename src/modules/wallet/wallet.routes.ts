// W1 top-up, W2 transaction status (both paths), and the balance. Errors use the wallet family:
// {status: "error", message} (401 and 429 keep the platform's {error}).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../platform/deps.js';
import { tenantId } from '../../platform/request-context.js';
import { CompanyIdInput as CompanyId, WalletError as ErrorSchema, MoneyInput } from '../../platform/schemas.js';
import type { TenancyMessages } from '../../platform/types.js';
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

const TransactionSchema = Type.Object({
  transaction_reference: Type.String(),
  amount: Type.Number({ description: 'NGN, exact to the kobo' }),
  currency: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('success'), Type.Literal('failed')]),
  type: Type.Literal('top_up'),
  provider: Type.String(),
  sandbox: Type.Boolean({ description: 'true for sandbox (test) money: no real payment stands behind it' }),
  customer_email: Type.String(),
  checkout_url: Type.Union([Type.Null(), Type.String()]),
  failure_reason: Type.Union([Type.Null(), Type.String()]),
  created_at: Type.String(),
  updated_at: Type.String(),
  completed_at: Type.Union([Type.Null(), Type.String()]),
});

const StatusQuery = Type.Object({ transaction_reference: Type.Optional(Type.String()), company_id: CompanyId });

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
          body: Type.Object({
            amount: Type.Optional(MoneyInput('NGN, 100 to 100,000,000, at most 2 decimals')),
            customer_email: Type.Optional(Type.String()),
            redirect_url: Type.Optional(Type.String({ description: 'http(s) URL on a domain the company authorized' })),
            company_id: CompanyId,
          }),
          response: {
            200: Type.Object({ status: Type.Literal('success'), checkoutUrl: Type.String(), transactionReference: Type.String() }),
            '4xx': ErrorSchema,
            '5xx': ErrorSchema,
          },
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
            response: {
              200: Type.Object({
                status: Type.Literal('success'),
                transaction_status: Type.Union([Type.Literal('pending'), Type.Literal('success'), Type.Literal('failed')]),
                transaction: TransactionSchema,
              }),
              '4xx': ErrorSchema,
              '5xx': ErrorSchema,
            },
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
          querystring: Type.Object({ company_id: CompanyId }),
          response: {
            200: Type.Object({
              status: Type.Literal('success'),
              balance: Type.Number(),
              currency: Type.Literal('NGN'),
              sandbox_balance: Type.Number({ description: 'the part of balance that came from sandbox (test) top-ups' }),
            }),
            '4xx': ErrorSchema,
            '5xx': ErrorSchema,
          },
        },
      },
      async (request) => service.balance(tenantId(request)),
    );
  };
}
