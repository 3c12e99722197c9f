// POST /api/year-to-date/import (docs/payroll.md, "Opening year-to-date"): the CSV's rows through
// the PUT's rules, row by row like U8 (docs/users.md): every row succeeds or fails on its own (a row
// is one opening, written whole or not at all), failures name the row and column, `dry_run` checks
// everything and writes nothing. Chunks of CHUNK rows: one transaction and a few statements per chunk.
// Each opening saved is audited as PUT's is (year_to_date.updated, one per row: each changes a
// person's tax), written with its chunk in one statement.
import type { Db } from '../../db/client.js';
import { type AuditEvent, recordAudit } from '../../platform/audit/index.js';
import { addFieldError, type FieldErrors } from '../../platform/errors.js';
import { type RowFailure, rowReport, yieldToEventLoop } from '../../platform/row-report.js';
import { parseYearToDateCsv } from './year-to-date.import.validation.js';
import { type OpeningWrite, yearToDateRepo } from './year-to-date.repo.js';
import { openingAudit, toWrite } from './year-to-date.service.js';
import { checkOpening, checkYear } from './year-to-date.validation.js';

const CHUNK = 2000;
interface Success {
  row: number;
  user_id: number;
  email: string;
  year: number;
}

function report(total: number, successes: Success[], failures: RowFailure[], dryRun: boolean) {
  return rowReport(total, successes, failures, dryRun, {
    success: 'All opening figures were saved successfully.',
    partial: 'Some opening figures were saved; see failures.',
    failed: 'No opening figures were saved; see failures.',
  });
}

export async function importOpenings(db: Db, companyId: number, data: Buffer, options: { dryRun: boolean }) {
  const rows = parseYearToDateCsv(data);
  const successes: Success[] = [];
  const failures: RowFailure[] = [];
  // (email, year) saved by an earlier row of the file: a second row for that opening is refused, not
  // applied over the first (a refused row saves nothing, so a later corrected row may follow it).
  const seen = new Set<string>();
  for (let start = 0; start < rows.length; start += CHUNK) {
    if (start > 0) await yieldToEventLoop();
    const chunk = rows.slice(start, start + CHUNK);
    const emails = chunk.map(({ record }) => (record.email ?? '').trim().toLowerCase());
    await db.transaction(async (tx) => {
      const found = await yearToDateRepo.usersByEmail(tx, companyId, [...new Set(emails.filter(Boolean))]);
      const writes: OpeningWrite[] = [];
      const audits: AuditEvent[] = [];
      const written: Success[] = [];
      chunk.forEach(({ line, record }, i) => {
        const errors: FieldErrors = {};
        const email = emails[i];
        const userId = email ? found.get(email) : undefined;
        if (!email) addFieldError(errors, 'email', 'The email field is required.');
        else if (userId === undefined) addFieldError(errors, 'email', 'No user with this email exists in the company.');
        const year = checkYear(record.year ?? '', errors);
        const { email: _email, year: _year, ...figures } = record;
        const checked = checkOpening(figures);
        if (!checked.ok) Object.assign(errors, checked.errors);
        const key = `${email}|${year}`;
        if (seen.has(key)) addFieldError(errors, 'email', `The email appears more than once for the year ${year} in this file.`);
        if (Object.keys(errors).length > 0 || !checked.ok || userId === undefined || year === undefined) {
          failures.push({ row: line, errors });
          return;
        }
        seen.add(key);
        writes.push(toWrite(userId, year, checked.value));
        audits.push(openingAudit(companyId, userId, year, checked.value));
        written.push({ row: line, user_id: userId, email, year });
      });
      if (!options.dryRun) {
        await yearToDateRepo.upsert(tx, companyId, writes);
        await recordAudit(tx, audits);
      }
      successes.push(...written);
    });
  }
  return report(rows.length, successes, failures, options.dryRun);
}
