// U8/U9 as a service: the CSV file's bytes in, the row report out. The API routes and the console's
// bulk upload page share it, and with it the per-process limit of imports parsed and written at
// once (each holds its parsed file: tens of MB), so the two doors together never exceed it.
// The CSV rows go through the same checks and the same batch cores as U3/U4, in chunks of
// CHUNK rows: one transaction per chunk (a chunk's users, e-mails and jobs commit together), a
// few batched queries per chunk, never one per row. A crash leaves each row applied or absent.
import fs from 'node:fs/promises';
import type { FieldErrors } from '../../../platform/errors.js';
import { type RowFailure, rowReport, yieldToEventLoop } from '../../../platform/row-report.js';
import { type CreateDeps, createUsers } from '../create/users.create.service.js';
import { type CreateValues, checkCreate, checkUpdate } from '../fields/users.fields.validation.js';
import { type UpdateItem, updateUsers } from '../update/users.update.service.js';
import { announceImport } from '../users.events.js';
import { usersByEmail } from '../users.lookup.repo.js';
import { type CsvKind, type CsvRow, parseUsersCsv, toColumnErrors } from './users.csv.validation.js';
import { createSlots } from './users.multipart.service.js';

export const CHUNK = 2000;

export interface BulkOptions {
  dryRun: boolean;
  notify: boolean;
}

interface Success {
  row: number;
  id: number | null;
  email: string;
}

function report(kind: 'create' | 'update', total: number, successes: Success[], failures: RowFailure[], dryRun: boolean) {
  const verb = kind === 'create' ? 'created' : 'updated';
  return rowReport(total, successes, failures, dryRun, {
    success: `All users were ${verb} successfully.`,
    partial: `Some users were ${verb}; see failures.`,
    failed: `No users were ${verb}; see failures.`,
  });
}

export async function bulkCreate(deps: CreateDeps, companyId: number, rows: CsvRow[], options: BulkOptions) {
  const successes: Success[] = [];
  const failures: RowFailure[] = [];
  for (let start = 0; start < rows.length; start += CHUNK) {
    if (start > 0) await yieldToEventLoop();
    const valid: { line: number; value: CreateValues }[] = [];
    for (const { line, record } of rows.slice(start, start + CHUNK)) {
      const checked = checkCreate({ ...record, is_active: false, notify: options.notify });
      if (checked.ok) valid.push({ line, value: checked.value });
      else failures.push({ row: line, errors: toColumnErrors(checked.errors) });
    }
    if (valid.length === 0) continue;
    const results = await createUsers(
      deps,
      companyId,
      valid.map((v) => v.value),
      options.dryRun,
    );
    results.forEach((result, i) => {
      const row = valid[i].line;
      if (result.ok) successes.push({ row, id: result.id, email: result.email });
      else failures.push({ row, errors: toColumnErrors(result.errors) });
    });
  }
  const created = report('create', rows.length, successes, failures, options.dryRun);
  if (!options.dryRun) await announceImport(deps.db, companyId, 'create', created);
  return created;
}

export async function bulkUpdate(deps: CreateDeps, companyId: number, rows: CsvRow[], options: BulkOptions) {
  const successes: Success[] = [];
  const failures: RowFailure[] = [];
  const seen = new Set<string>();
  for (let start = 0; start < rows.length; start += CHUNK) {
    if (start > 0) await yieldToEventLoop();
    const chunk = rows.slice(start, start + CHUNK);
    const keys = chunk.map(({ record }) => (record.email ?? '').trim().toLowerCase());
    const found = await usersByEmail(deps.db, companyId, keys.filter(Boolean));
    const items: { line: number; item: UpdateItem }[] = [];
    chunk.forEach(({ line, record }, i) => {
      const key = keys[i];
      const errors: FieldErrors = {};
      if (!key) errors.email = ['The email field is required.'];
      else if (seen.has(key)) errors.email = ['The email appears more than once in this file.'];
      else if (!found.has(key)) errors.email = ['No user with this email exists in the company.'];
      seen.add(key);
      // Passwords are never taken from files; the update template has no such column anyway.
      const checked = checkUpdate({ ...record, notify: options.notify });
      if (!checked.ok) Object.assign(errors, checked.errors);
      if (Object.keys(errors).length > 0 || !checked.ok) {
        failures.push({ row: line, errors: toColumnErrors(errors) });
        return;
      }
      items.push({ line, item: { id: (found.get(key) as { id: number }).id, values: checked.value } });
    });
    if (items.length === 0) continue;
    const results = await updateUsers(
      deps,
      companyId,
      items.map((v) => v.item),
      options.dryRun,
    );
    results.forEach((result, i) => {
      const row = items[i].line;
      if (result.ok) successes.push({ row, id: result.id, email: result.email });
      else failures.push({ row, errors: toColumnErrors(result.errors) });
    });
  }
  const updated = report('update', rows.length, successes, failures, options.dryRun);
  if (!options.dryRun) await announceImport(deps.db, companyId, 'update', updated);
  return updated;
}

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
