import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../platform/deps.js';
import { errorResponses, FieldsError } from '../../platform/schemas.js';
import { BANKS } from './banks.lookup.rules.js';

const BankSchema = Type.Object({
  name: Type.String(),
  code: Type.String({ description: "CBN 3-digit code, or a microfinance bank's 6-digit NUBAN code" }),
  slug: Type.String(),
});

/** The answer never changes while the process runs: built once. */
const ANSWER = { message: 'Banks retrieved successfully.', data: [...BANKS] };

export async function banksRoutes(root: FastifyInstance): Promise<void> {
  const app = typed(root);
  app.get(
    '/api/banks',
    {
      config: { name: 'banks.index' },
      schema: {
        tags: ['banks'],
        summary: 'Nigerian banks and microfinance banks with their codes (bank_code of users)',
        response: { 200: Type.Object({ message: Type.String(), data: Type.Array(BankSchema) }), ...errorResponses(FieldsError) },
      },
    },
    async () => ANSWER,
  );
}
