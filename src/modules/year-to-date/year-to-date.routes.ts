// GET/PUT /api/users/{id}/year-to-date/{year} and POST /api/year-to-date/import (docs/payroll.md,
// "Opening year-to-date"). PUT and the import need the scope `users.update` (SCOPE_OF in
// platform/auth/tokens.ts), GET `users.show`; errors are the users' families.
import fs from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { type AppDeps, typed } from '../../platform/deps.js';
import { invalid } from '../../platform/errors.js';
import { tenantId } from '../../platform/request-context.js';
import { BulkError, CompanyIdInput, errorResponses, FieldsError } from '../../platform/schemas.js';
import { createSlots, readMultipart, resolveFormCompany, USERS_TENANCY } from '../users/index.js';
import { importOpenings } from './year-to-date.import.service.js';
import { YTD_CSV_UPLOAD } from './year-to-date.import.validation.js';
import { ImportReport, OpeningBody, YearToDateAnswer } from './year-to-date.schemas.js';
import { NOT_FOUND, type YearToDateService } from './year-to-date.service.js';

// The year is read by the service (a 422 naming the range, not a schema 400).
const Params = Type.Object({ id: Type.Integer({ minimum: 1 }), year: Type.String() });
const CompanyQuery = Type.Object({ company_id: CompanyIdInput });
const IMPORT_TENANCY = { ...USERS_TENANCY, notFound: 'Target company not found.' };
const tags = ['users'];

const bodyOf = (request: FastifyRequest) =>
  request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};

export function yearToDateRoutes(deps: AppDeps, service: YearToDateService) {
  // One import parsed and written at a time per process, as U8's slots (the file is held in memory).
  const slot = createSlots(2);
  return async (root: FastifyInstance): Promise<void> => {
    const app = typed(root);

    app.get(
      '/api/users/:id/year-to-date/:year',
      {
        config: { name: 'users.year-to-date.show', tenancy: USERS_TENANCY, notFoundMessage: NOT_FOUND },
        schema: {
          tags,
          summary: 'A user’s year to date: opening figures and what this service paid since',
          params: Params,
          querystring: CompanyQuery,
          response: { 200: YearToDateAnswer, ...errorResponses(FieldsError) },
        },
      },
      async (request) => service.show(tenantId(request), request.params.id, request.params.year),
    );

    app.put(
      '/api/users/:id/year-to-date/:year',
      {
        config: { name: 'users.year-to-date.update', tenancy: USERS_TENANCY, notFoundMessage: NOT_FOUND },
        schema: {
          tags,
          summary: 'Record a user’s opening year-to-date figures (pay before this service)',
          params: Params,
          querystring: CompanyQuery,
          body: OpeningBody,
          response: { 200: YearToDateAnswer, ...errorResponses(FieldsError) },
        },
      },
      async (request) => service.put(tenantId(request), request.params.id, request.params.year, bodyOf(request)),
    );

    app.post(
      '/api/year-to-date/import',
      {
        config: { name: 'users.year-to-date.import', tenancy: IMPORT_TENANCY, family: 'bulk', sensitive: true },
        schema: {
          tags,
          summary: 'Opening year-to-date figures from a CSV file (multipart field `year_to_date_csv`)',
          consumes: ['multipart/form-data'],
          querystring: Type.Object({ company_id: CompanyIdInput, dry_run: Type.Optional(Type.Boolean()) }),
          response: { 200: ImportReport, ...errorResponses(BulkError) },
        },
      },
      async (request) => {
        const required = invalid({ year_to_date_csv: ['The year to date csv field is required.'] });
        if (!request.isMultipart()) throw required;
        const { fields, files, discard } = await readMultipart(request, deps.config.dataDir, YTD_CSV_UPLOAD);
        try {
          const companyId = await resolveFormCompany(deps.db, request, fields, IMPORT_TENANCY);
          const [file] = files;
          if (!file) throw required;
          if (file.truncated) throw invalid({ year_to_date_csv: [YTD_CSV_UPLOAD.tooLarge] });
          const dryRun = request.query.dry_run ?? (fields.dry_run === 'true' || fields.dry_run === '1');
          return await slot(async () => importOpenings(deps.db, companyId, await fs.readFile(file.path), { dryRun }));
        } finally {
          await discard();
        }
      },
    );
  };
}
