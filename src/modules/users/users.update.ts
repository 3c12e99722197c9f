// Updating users: U4 is a batch of one, a CSV chunk of U9 is a batch of many. One transaction per
// batch, lookups batched, one UPDATE statement for the whole batch (usersRepo.patchMany).
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { uniqueViolation } from '../../platform/db-errors.js';
import { type FieldErrors, internal } from '../../platform/errors.js';
import type { Mailer, MailMessage } from '../../platform/mail/outbox.js';
import { DOMAIN_MISSING, MANAGER_MISSING, TYPE_MISSING } from './users.create.js';
import type { UpdateValues } from './users.fields.js';
import { companyName, deriveEmails, emailLocalPart, loadVocabulary, usersByEmail, usersByPersonalEmail } from './users.lookup.js';
import { detailsChangedMail } from './users.mail.js';
import { type UserPatch, usersRepo } from './users.repo.js';

export interface UpdateItem {
  id: number;
  values: UpdateValues;
  passwordHash?: string;
  /** Stored paths of newly uploaded documents, appended to the user's list. */
  newDocuments?: string[];
}

export type UpdateResult =
  | { ok: true; id: number; email: string; emailUpdate: string; changed: string[] }
  | { ok: false; status: 404 | 422; errors: FieldErrors };

export interface UpdateDeps {
  db: Db;
  mailer: Mailer;
}

type UserRow = typeof users.$inferSelect;

export async function updateUsers(deps: UpdateDeps, companyId: number, items: UpdateItem[], dryRun = false): Promise<UpdateResult[]> {
  const results: UpdateResult[] = new Array(items.length);
  await deps.db.transaction(async (tx) => {
    let pending = items.map((_, index) => index);
    for (let round = 0; pending.length > 0 && round < 4; round++) {
      pending = await updateRound(deps, tx, companyId, items, pending, results, dryRun);
    }
    if (pending.length > 0) throw internal('Failed to update user.');
  });
  return results;
}

const FIELD_COLUMNS: [keyof UpdateValues, keyof UserRow, string][] = [
  ['firstName', 'firstName', 'first_name'],
  ['lastName', 'lastName', 'last_name'],
  ['personalEmail', 'personalEmail', 'personal_email'],
  ['title', 'title', 'title'],
  ['department', 'department', 'department'],
  ['officeLocation', 'officeLocation', 'office_location'],
  ['startDate', 'startDate', 'start_date'],
  ['bankName', 'bankName', 'bank_name'],
  ['accountNumber', 'accountNumber', 'account_number'],
];

/** Exact decimal comparison of a stored numeric and an input ("250000" equals "250000.00"). */
function sameMoney(stored: string | null, input: string | undefined): boolean {
  if (input === undefined) return true;
  if (stored === null) return false;
  const norm = (value: string) => {
    const [whole, fraction = ''] = value.split('.');
    return `${BigInt(whole)}.${(fraction + '00').slice(0, 2)}`;
  };
  return norm(stored) === norm(input);
}

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
  const current = new Map(
    (
      await tx
        .select()
        .from(users)
        .where(and(eq(users.companyId, companyId), inArray(users.id, ids), isNull(users.deletedAt)))
        .for('update')
    ).map((row) => [row.id, row]),
  );
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

  type Plan = { index: number; user: UserRow; patch: UserPatch; changed: string[]; local: string; domain: string; rederive: boolean };
  const plans: Plan[] = [];
  for (const index of pending) {
    const item = items[index];
    const user = current.get(item.id);
    if (!user) {
      results[index] = { ok: false, status: 404, errors: { id: ['User not found.'] } };
      continue;
    }
    const v = item.values;
    const errors: FieldErrors = {};
    const domain = v.domainName === undefined ? undefined : vocab.domains.get(v.domainName);
    if (v.domainName !== undefined && !domain) errors.domain_name = [DOMAIN_MISSING];
    const type = v.userType === undefined ? undefined : vocab.types.get(v.userType.toLowerCase());
    if (v.userType !== undefined && !type) errors.user_types = [TYPE_MISSING];
    const manager = v.managerEmail === undefined ? undefined : managers.get(v.managerEmail);
    if (v.managerEmail !== undefined && !manager) errors.manager_email = [MANAGER_MISSING];
    if (manager && manager.id === user.id) errors.manager_email = ['A user cannot be their own manager.'];
    const owner = v.personalEmail === undefined ? undefined : owners.get(v.personalEmail);
    if (owner && owner.id !== user.id) errors.personal_email = ['The personal email has already been taken.'];
    // bank_name and account_number must end up both set or both empty.
    const bank = v.bankName ?? user.bankName;
    const account = v.accountNumber ?? user.accountNumber;
    if (bank && !account) errors.account_number = ['The account number field is required when bank name is present.'];
    if (account && !bank) errors.bank_name = ['The bank name field is required when account number is present.'];
    if (Object.keys(errors).length > 0) {
      results[index] = { ok: false, status: 422, errors };
      continue;
    }

    const patch: UserPatch = { id: user.id };
    const changed: string[] = [];
    for (const [key, column, name] of FIELD_COLUMNS) {
      const next = v[key];
      if (next !== undefined && next !== user[column]) {
        (patch as unknown as Record<string, unknown>)[name] = next;
        changed.push(name);
      }
    }
    const set = <K extends keyof UserPatch>(key: K, value: UserPatch[K], field: string) => {
      patch[key] = value;
      changed.push(field);
    };
    if (!sameMoney(user.baseSalary, v.baseSalary)) set('base_salary', v.baseSalary, 'base_salary');
    if (!sameMoney(user.allowances, v.allowances)) set('allowances', v.allowances, 'allowances');
    if (domain && domain.id !== user.domainId) set('domain_id', domain.id, 'domain_name');
    if (type && type.id !== user.userTypeId) set('user_type_id', type.id, 'user_types');
    if (manager && manager.id !== user.managerId) set('manager_id', manager.id, 'manager_email');
    if (item.passwordHash) set('password_hash', item.passwordHash, 'password');
    if (item.newDocuments?.length) set('document_paths', [...(user.documentPaths ?? []), ...item.newDocuments], 'documents');
    const domainName = domain?.name ?? user.email.split('@')[1];
    const rederive = Boolean(patch.first_name !== undefined || patch.last_name !== undefined || patch.domain_id !== undefined);
    plans.push({
      index,
      user,
      patch,
      changed,
      local: emailLocalPart(v.firstName ?? user.firstName, v.lastName ?? user.lastName),
      domain: domainName,
      rederive,
    });
  }

  // Changing names or domain re-derives the company e-mail (the user's own address may be kept).
  const derive = plans.filter((p) => p.rederive);
  const emails = await deriveEmails(
    tx,
    derive.map((p) => ({ local: p.local, domain: p.domain, own: p.user.email })),
  );
  derive.forEach((p, i) => {
    if (emails[i] !== p.user.email) {
      p.patch.email = emails[i];
      p.changed.push('email');
    }
  });

  const retry: number[] = [];
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
  }
  const mails: MailMessage[] = [];
  const company = plans.some((p) => p.changed.length > 0 && items[p.index].values.notify) ? await companyName(tx, companyId) : '';
  for (const p of plans) {
    if (!updated.includes(p.user.id)) {
      retry.push(p.index);
      continue;
    }
    const email = p.patch.email ?? p.user.email;
    results[p.index] = {
      ok: true,
      id: p.user.id,
      email,
      emailUpdate: p.patch.email ? `Email changed to ${email}.` : 'No change.',
      changed: p.changed,
    };
    if (!dryRun && items[p.index].values.notify && p.changed.length > 0) {
      const to = p.patch.personal_email ?? p.user.personalEmail;
      mails.push(
        detailsChangedMail({ companyId, firstName: p.patch.first_name ?? p.user.firstName, personalEmail: to, email }, company, p.changed),
      );
    }
  }
  if (!dryRun) await deps.mailer.sendMany(tx, mails);
  return retry;
}
