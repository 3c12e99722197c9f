// Request and response schemas of the W1/W2 and balance routes (wallet.routes.ts). Their errors are
// the wallet family's {status: "error", message}.
import { Type } from 'typebox';
import { CompanyIdInput as CompanyId, WalletError as ErrorSchema, MoneyInput } from '../../platform/schemas.js';

/** Every 4xx and 5xx answer of the wallet family. */
export const WalletErrors = { '4xx': ErrorSchema, '5xx': ErrorSchema };

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

export const TopUpBody = Type.Object({
  amount: Type.Optional(MoneyInput('NGN, 100 to 100,000,000, at most 2 decimals')),
  customer_email: Type.Optional(Type.String()),
  redirect_url: Type.Optional(Type.String({ description: 'http(s) URL on a domain the company authorized' })),
  company_id: CompanyId,
});

export const TopUpAnswer = Type.Object({
  status: Type.Literal('success'),
  checkoutUrl: Type.String(),
  transactionReference: Type.String(),
});

export const StatusQuery = Type.Object({ transaction_reference: Type.Optional(Type.String()), company_id: CompanyId });

export const StatusAnswer = Type.Object({
  status: Type.Literal('success'),
  transaction_status: Type.Union([Type.Literal('pending'), Type.Literal('success'), Type.Literal('failed')]),
  transaction: TransactionSchema,
});

export const BalanceQuery = Type.Object({ company_id: CompanyId });

export const BalanceAnswer = Type.Object({
  status: Type.Literal('success'),
  balance: Type.Number(),
  currency: Type.Literal('NGN'),
  sandbox_balance: Type.Number({ description: 'the part of balance that came from sandbox (test) top-ups' }),
});
