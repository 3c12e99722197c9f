// U8/U9 as a service: the CSV file's bytes in, the row report out. The API routes and the console's
// bulk upload page share it, and with it the per-process limit of imports parsed and written at
// once (each holds its parsed file: tens of MB), so the two doors together never exceed it.
import fs from 'node:fs/promises';
import { type BulkOptions, bulkCreate, bulkUpdate } from './users.bulk.js';
import type { CreateDeps } from './users.create.js';
import { type CsvKind, parseUsersCsv } from './users.csv.js';
import { createSlots } from './users.multipart.js';

/** CSV imports parsed and written at once per process. */
export const BULK_CONCURRENCY = 2;

export function createBulkService(deps: CreateDeps) {
  const slot = createSlots(BULK_CONCURRENCY);
  return {
    /** Reads the uploaded file at `path`, parses it and imports it, holding one of the slots. */
    run(companyId: number, kind: CsvKind, path: string, options: BulkOptions) {
      return slot(async () => {
        const rows = await parseUsersCsv(await fs.readFile(path), kind);
        return kind === 'create' ? bulkCreate(deps, companyId, rows, options) : bulkUpdate(deps, companyId, rows, options);
      });
    },
  };
}

export type BulkService = ReturnType<typeof createBulkService>;
