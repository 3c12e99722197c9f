// The plan of one round of user updates (U4 is a batch of one, a CSV chunk of U9 a batch of many).
// Pure: no database, no clock, so every decision is a table test (users.update.planner.test.ts).
// users.update.service.ts locks and loads the rows, derives e-mails and writes.
//
// Contract:
// - planUpdates(pending, items, context): `context` is what the caller loaded in the batch's
//   transaction: the live users the items name (locked), the company's vocabulary, the managers by
//   company e-mail and the users with the new personal e-mails. Each item fails (404 unknown user;
//   403 a password for a console user without `all`; 422 with every field error at once) or is
//   planned: a patch with only what changes, the API names of the changed fields, and the
//   `first.last@domain` to re-derive the company e-mail from when names or domain change.
// - applyEmails(plans, emails): puts the derived e-mails (in the order of the plans that `rederive`)
//   into the patches when they differ from the user's own.
// - updateResults(plans, updated): which plans were written (their results) and which lost a race
//   (their indexes, re-planned by the next round).
import { holdsConsoleRole } from '../../../platform/auth/console-access.js';
import type { FieldErrors } from '../../../platform/errors.js';
import { planBankUpdate } from '../bank/users.bank-fields.validation.js';
import { DOMAIN_MISSING, MANAGER_MISSING, TYPE_MISSING } from '../create/users.create.planner.js';
import type { UpdateValues } from '../fields/users.fields.validation.js';
import { type StatutoryValues, settlePensionExemption, statutoryChanges } from '../fields/users.statutory-fields.validation.js';
import type { Vocabulary } from '../users.lookup.repo.js';
import { emailLocalPart } from '../users.lookup.service.js';
import type { UserPatch, UserRow } from '../users.repo.js';
import { MAX_DOCUMENTS_PER_USER, TOO_MANY_DOCUMENTS_PER_USER } from './users.documents.service.js';

export interface UpdateItem {
  id: number;
  values: UpdateValues;
  passwordHash?: string;
  /** The caller's token has `all`: only then may it set the password of a console user (docs/users.md). */
  mayGrantConsoleAccess?: boolean;
  /** Stored paths of newly uploaded documents, appended to the user's list. */
  newDocuments?: string[];
}

export type UpdateResult =
  | { ok: true; id: number; email: string; emailUpdate: string; changed: string[] }
  | { ok: false; status: 403 | 404 | 422; errors: FieldErrors };

export interface UpdateContext {
  /** The live users the items name, by id (locked by the caller). */
  current: Map<number, UserRow>;
  vocab: Vocabulary;
  /** Live users of the company by company e-mail (manager_email). */
  managers: Map<string, UserRow>;
  /** Live users of the company by personal e-mail. */
  owners: Map<string, UserRow>;
}

export interface UpdatePlan {
  index: number;
  user: UserRow;
  patch: UserPatch;
  /** API names of the fields that change, in a fixed order (the e-mail last). */
  changed: string[];
  local: string;
  domain: string;
  /** Names or domain change: the company e-mail is derived again (the user's own may be kept). */
  rederive: boolean;
  /** The statutory fields that change (written by statutoryRepo). */
  statutory: StatutoryValues;
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
    return `${BigInt(whole)}.${(`${fraction}00`).slice(0, 2)}`;
  };
  return norm(stored) === norm(input);
}

export function planUpdates(
  pending: number[],
  items: UpdateItem[],
  context: UpdateContext,
): { failed: { index: number; result: UpdateResult }[]; plans: UpdatePlan[] } {
  const { current, vocab, managers, owners } = context;
  const failed: { index: number; result: UpdateResult }[] = [];
  const plans: UpdatePlan[] = [];
  for (const index of pending) {
    const item = items[index];
    const user = current.get(item.id);
    if (!user) {
      failed.push({ index, result: { ok: false, status: 404, errors: { id: ['User not found.'] } } });
      continue;
    }
    // Checked on the locked row: a password set races no promotion (a role kept aside by a
    // suspension comes back at its end, so it counts as held).
    if (item.passwordHash && !item.mayGrantConsoleAccess && (holdsConsoleRole(user.roles) || holdsConsoleRole(user.suspendedRoles))) {
      failed.push({ index, result: { ok: false, status: 403, errors: { password: ['forbidden'] } } });
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
    // A bank_code names the bank too (its name is filled in: users.bank-fields.validation.ts).
    const bank = v.bankName ?? v.bankCode ?? user.bankName;
    const account = v.accountNumber ?? user.accountNumber;
    if (bank && !account) errors.account_number = ['The account number field is required when bank name is present.'];
    if (account && !bank) errors.bank_name = ['The bank name field is required when account number is present.'];
    // A recorded exit bounds the start (docs/users.md, "Leavers"): pay is counted from one to the other.
    if (v.startDate !== undefined && user.exitDate && v.startDate > user.exitDate) {
      errors.start_date = [`The start date must not be after the user's exit date (${user.exitDate}).`];
    }
    const bankUpdate = planBankUpdate(errors, v, user);
    // On the locked row: the exemption and its reason are checked as they will be stored.
    const statutoryValues = { ...v.statutory };
    settlePensionExemption(statutoryValues, errors, user);
    // Checked here, under the row lock: two concurrent uploads cannot both squeeze under the cap.
    if ((user.documentPaths?.length ?? 0) + (item.newDocuments?.length ?? 0) > MAX_DOCUMENTS_PER_USER) {
      errors.documents = [TOO_MANY_DOCUMENTS_PER_USER];
    }
    if (Object.keys(errors).length > 0) {
      failed.push({ index, result: { ok: false, status: 422, errors } });
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
    if (bankUpdate) {
      if (bankUpdate.bank_name !== undefined && patch.bank_name === undefined) set('bank_name', bankUpdate.bank_name, 'bank_name');
      if (bankUpdate.bank_identity_changed) {
        Object.assign(patch, { bank_code: bankUpdate.bank_code, bank_identity_changed: true });
        if (bankUpdate.bank_code !== user.bankCode) changed.push('bank_code');
      }
    }
    if (item.passwordHash) set('password_hash', item.passwordHash, 'password');
    if (item.newDocuments?.length) set('document_paths', [...(user.documentPaths ?? []), ...item.newDocuments], 'documents');
    const statutory = statutoryChanges(user, statutoryValues);
    changed.push(...statutory.changed);
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
      statutory: statutory.values,
    });
  }

  return { failed, plans };
}

/** Puts the derived e-mails (one per plan that re-derives, in order) into the patches that change. */
export function applyEmails(plans: UpdatePlan[], emails: string[]): void {
  plans
    .filter((p) => p.rederive)
    .forEach((p, i) => {
      if (emails[i] !== p.user.email) {
        p.patch.email = emails[i];
        p.changed.push('email');
      }
    });
}

/** The results of the plans whose users were updated; the others lost a race and are retried. */
export function updateResults(plans: UpdatePlan[], updated: number[]) {
  const done: { plan: UpdatePlan; result: UpdateResult & { ok: true } }[] = [];
  const retry: number[] = [];
  for (const p of plans) {
    if (!updated.includes(p.user.id)) {
      retry.push(p.index);
      continue;
    }
    const email = p.patch.email ?? p.user.email;
    const result = {
      ok: true as const,
      id: p.user.id,
      email,
      emailUpdate: p.patch.email ? `Email changed to ${email}.` : 'No change.',
      changed: p.changed,
    };
    done.push({ plan: p, result });
  }
  return { done, retry };
}
