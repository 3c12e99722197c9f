// Updating users: U4 is a batch of one, a CSV chunk of U9 is a batch of many. One transaction per
// batch, lookups batched, one UPDATE statement for the whole batch (usersRepo.patchMany).
import type { Db, Tx } from '../../../db/client.js';
import { endConsoleSessions } from '../../../platform/auth/console-access.js';
import { uniqueViolation } from '../../../platform/db-errors.js';
import type { Mailer, MailMessage } from '../../../platform/mail/outbox.js';
import { bankChangeNotices, touchesBank } from '../bank/users.bank-change.mail.js';
import { statutoryRepo } from '../fields/users.statutory.repo.js';
import { companyName, loadVocabulary, usersByEmail, usersByPersonalEmail } from '../users.lookup.repo.js';
import { deriveEmails, inRounds } from '../users.lookup.service.js';
import { detailsChangedMail } from '../users.mail.js';
import { usersRepo } from '../users.repo.js';
import { applyEmails, planUpdates, type UpdateItem, type UpdateResult, updateResults } from './users.update.planner.js';

export type { UpdateItem, UpdateResult } from './users.update.planner.js';

export interface UpdateDeps {
  db: Db;
  mailer: Mailer;
}

export async function updateUsers(
  deps: UpdateDeps,
  companyId: number,
  items: UpdateItem[],
  dryRun = false,
  afterWrite?: (tx: Tx, results: UpdateResult[]) => Promise<void>,
): Promise<UpdateResult[]> {
  const results: UpdateResult[] = new Array(items.length);
  await deps.db.transaction(async (tx) => {
    await inRounds(items.length, (pending) => updateRound(deps, tx, companyId, items, pending, results, dryRun), 'Failed to update user.');
    await afterWrite?.(tx, results);
  });
  return results;
}

/** One round: lock and load, plan (users.update.planner.ts), write; returns the items that lost a race. */
async function updateRound(
  deps: UpdateDeps,
  tx: Tx,
  companyId: number,
  items: UpdateItem[],
  pending: number[],
  results: UpdateResult[],
  dryRun: boolean,
): Promise<number[]> {
  const ids = [...new Set(pending.map((index) => items[index].id))];
  const current = new Map((await usersRepo.lockManyByIds(tx, companyId, ids)).map((row) => [row.id, row]));
  const values = pending.map((index) => items[index].values);
  const [vocab, managers, owners] = await Promise.all([
    loadVocabulary(tx, companyId),
    usersByEmail(
      tx,
      companyId,
      values.flatMap((v) => (v.managerEmail ? [v.managerEmail] : [])),
    ),
    usersByPersonalEmail(
      tx,
      companyId,
      values.flatMap((v) => (v.personalEmail ? [v.personalEmail] : [])),
    ),
  ]);

  const { failed, plans } = planUpdates(pending, items, { current, vocab, managers, owners });
  for (const { index, result } of failed) results[index] = result;

  // Changing names or domain re-derives the company e-mail (the user's own address may be kept).
  const emails = await deriveEmails(
    tx,
    plans.filter((p) => p.rederive).map((p) => ({ local: p.local, domain: p.domain, own: p.user.email })),
  );
  applyEmails(plans, emails);

  let updated: number[] = plans.map((p) => p.user.id);
  if (!dryRun) {
    try {
      // Savepoint: a unique index lost to a concurrent writer re-plans instead of failing the batch.
      updated = await tx.transaction((sp) =>
        usersRepo.patchMany(
          sp,
          companyId,
          plans.map((p) => p.patch),
        ),
      );
    } catch (error) {
      if (!uniqueViolation(error)) throw error;
      updated = [];
    }
    const written = plans.filter((p) => updated.includes(p.user.id));
    await statutoryRepo.writeMany(
      tx,
      companyId,
      written.map((p) => ({ id: p.user.id, values: p.statutory })),
    );
  }
  const mails: MailMessage[] = [];
  const bankWritten = !dryRun && touchesBank(plans.map((p) => p.patch));
  const company =
    bankWritten || plans.some((p) => p.changed.length > 0 && items[p.index].values.notify) ? await companyName(tx, companyId) : '';
  const { done, retry } = updateResults(plans, updated);
  // Whatever `notify` says: a bank change always tells the employee (docs/payroll-runs.md).
  if (bankWritten)
    mails.push(
      ...bankChangeNotices(
        company,
        done.map(({ plan: p, result }) => ({ companyId, user: p.user, patch: p.patch, email: result.email })),
      ),
    );
  for (const { plan: p, result } of done) {
    results[p.index] = result;
    if (!dryRun && items[p.index].values.notify && p.changed.length > 0) {
      const to = p.patch.personal_email ?? p.user.personalEmail;
      const person = { companyId, firstName: p.patch.first_name ?? p.user.firstName, personalEmail: to, email: result.email };
      mails.push(detailsChangedMail(person, company, p.changed));
    }
  }
  if (!dryRun) {
    await deps.mailer.sendMany(tx, mails);
    // A new password ends every console session opened with the old one, in the same transaction.
    const passwordSet = plans.filter((p) => p.patch.password_hash && updated.includes(p.user.id)).map((p) => p.user.id);
    await endConsoleSessions(tx, companyId, passwordSet);
  }
  return retry;
}
