import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../platform/deps.js';
import { errorResponses, FieldsError } from '../../platform/schemas.js';
import type { ReferenceDataService } from './reference-data.service.js';

const errors = errorResponses(FieldsError);
const Listed = <T extends ReturnType<typeof Type.Object>>(item: T) =>
  Type.Object({
    data: Type.Array(item),
    source: Type.String({ description: 'Where the list comes from' }),
    as_of: Type.String({ description: 'YYYY-MM-DD: the date the list was taken from its source' }),
  });

/** Lists shared by every company: any valid token reads them (no company_id, no tenancy). */
export async function referenceDataRoutes(root: FastifyInstance, service: ReferenceDataService): Promise<void> {
  const app = typed(root);

  app.get(
    '/api/states',
    {
      config: { name: 'states.index', family: 'plain', internalMessage: 'Failed to retrieve states.' },
      schema: {
        tags: ['reference data'],
        summary: "The 36 states and the FCT, each with its code (a user's state_of_residence) and its PAYE authority",
        response: {
          200: Listed(Type.Object({ code: Type.String(), name: Type.String(), tax_authority: Type.String() })),
          ...errors,
        },
      },
    },
    async () => service.states(),
  );

  app.get(
    '/api/pfas',
    {
      config: { name: 'pfas.index', family: 'plain', internalMessage: 'Failed to retrieve pension fund administrators.' },
      schema: {
        tags: ['reference data'],
        summary: "The licensed Pension Fund Administrators, each with its code (a user's pfa_code)",
        response: { 200: Listed(Type.Object({ code: Type.String(), name: Type.String() })), ...errors },
      },
    },
    async () => service.pfas(),
  );
}
