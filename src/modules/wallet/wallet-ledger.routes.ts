// GET /api/wallet/transactions (route wallet.transactions): the ledger, newest first (ledger_seq), as the
// Laravel paginator. docs/payroll-runs.md, "Routes and messages", gives the new routes the `{error}`
// shape (family `plain`).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { typed } from '../../platform/deps.js';
import { laravelPage, pageOffset } from '../../platform/paginator.js';
import { tenantId } from '../../platform/request-context.js';
import { LaravelPage, PageQueryFields } from '../../platform/schemas.js';
import { WALLET_TENANCY } from './wallet.routes.js';
import { serializeLedgerEntry, walletLedger } from './wallet-ledger.service.js';

const NullableString = Type.Union([Type.Null(), Type.String()]);
const EntrySchema = Type.Object({
  id: Type.Integer(),
  type: Type.Union([Type.Literal('top_up'), Type.Literal('payroll_debit'), Type.Literal('payroll_refund')]),
  amount: Type.String({ description: 'signed decimal, NGN' }),
  balance_after: NullableString,
  reference: NullableString,
  description: Type.String(),
  created_at: Type.String(),
});
const ErrorSchema = Type.Object({ error: Type.Unknown() });

export function walletLedgerRoutes(deps: { db: Db; config: Pick<Config, 'publicUrl'> }) {
  return async (root: FastifyInstance): Promise<void> => {
    const app = typed(root);
    app.get(
      '/api/wallet/transactions',
      {
        config: { name: 'wallet.transactions', family: 'plain', tenancy: WALLET_TENANCY },
        schema: {
          tags: ['wallet'],
          summary: 'The wallet ledger (top-ups, payroll debits and refunds), newest first',
          querystring: Type.Object({
            company_id: Type.Optional(Type.Union([Type.Integer(), Type.String()])),
            ...PageQueryFields,
          }),
          response: {
            200: Type.Object({
              message: Type.String(),
              data: LaravelPage(EntrySchema),
            }),
            '4xx': ErrorSchema,
            '5xx': ErrorSchema,
          },
        },
      },
      async (request) => {
        const companyId = tenantId(request);
        const page = request.query.page ?? 1;
        const perPage = request.query.per_page ?? 10;
        const [total, rows] = await Promise.all([
          walletLedger.count(deps.db, companyId),
          walletLedger.page(deps.db, companyId, perPage, pageOffset(page, perPage)),
        ]);
        const pageRequest = { publicUrl: deps.config.publicUrl, path: '/api/wallet/transactions', rawQuery: request.query, page, perPage };
        return {
          message: 'Wallet transactions retrieved successfully',
          data: laravelPage(pageRequest, total, rows.map(serializeLedgerEntry)),
        };
      },
    );
  };
}
