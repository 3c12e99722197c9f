// U8 and U9 (docs/reference.md): create or update users from a CSV file. Registered last by
// usersRoutes (users.routes.ts).
import type { AppDeps, typed } from '../../../platform/deps.js';
import { invalid } from '../../../platform/errors.js';
import { BULK_TENANCY, BulkQuery, bulkErrors, tags } from '../users.params.schemas.js';
import { BulkReportSchema } from '../users.schemas.js';
import type { BulkService } from './users.bulk.service.js';
import { CSV_UPLOAD, type CsvKind } from './users.csv.validation.js';
import { readMultipart, resolveFormCompany } from './users.multipart.service.js';

export function usersBulkRoutes(app: ReturnType<typeof typed>, deps: AppDeps, bulk: BulkService): void {
  for (const [url, kind, name, summary] of [
    ['/api/users/bulk-create', 'create', 'users.bulk-create', 'U8. Create users from a CSV file (multipart field `users_csv`)'],
    ['/api/users/bulk-update', 'update', 'users.bulk-update', 'U9. Update users from a CSV file (multipart field `users_csv`)'],
  ] as const) {
    app.post(
      url,
      {
        config: { name, tenancy: BULK_TENANCY, family: 'bulk', sensitive: true },
        schema: {
          tags,
          summary,
          consumes: ['multipart/form-data'],
          querystring: BulkQuery,
          response: { 200: BulkReportSchema, ...bulkErrors },
        },
      },
      async (request) => {
        const required = invalid({ users_csv: ['The users csv field is required.'] });
        if (!request.isMultipart()) throw required;
        const { fields, files, discard } = await readMultipart(request, deps.config.dataDir, CSV_UPLOAD);
        try {
          const companyId = await resolveFormCompany(deps.db, request, fields, BULK_TENANCY);
          const [file] = files;
          if (!file) throw required;
          if (file.truncated) throw invalid({ users_csv: [CSV_UPLOAD.tooLarge] });
          const flag = (value: boolean | undefined, field: string | undefined) => value ?? (field === 'true' || field === '1');
          const options = { dryRun: flag(request.query.dry_run, fields.dry_run), notify: flag(request.query.notify, fields.notify) };
          // The file is read, parsed and imported holding one of a few slots: memory stays bounded
          // however many imports arrive together (the others wait, their files on disk).
          return await bulk.run(companyId, kind as CsvKind, file.path, options);
        } finally {
          await discard();
        }
      },
    );
  }
}
