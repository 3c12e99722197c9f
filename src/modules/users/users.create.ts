// Creating users: U3 is a batch of one, a CSV chunk of U8 is a batch of many. Same rules, same
// code. One transaction per batch; all lookups batched; rows lost to a concurrent writer (same
// personal e-mail, same derived company e-mail) are re-planned against the winner's row.
import type { Db, Tx } from '../../db/client.js';
import type { users } from '../../db/schema/index.js';
import { uniqueViolation } from '../../platform/db-errors.js';
import { type FieldErrors, internal } from '../../platform/errors.js';
import type { Mailer, MailMessage } from '../../platform/mail/outbox.js';
import type { CreateValues } from './users.fields.js';
import {
  allocateEmployeeIds,
  companyName,
  deriveEmails,
  emailLocalPart,
  loadVocabulary,
  newOnboardingToken,
  ONBOARDING_TTL_MS,
  randomIds,
  usersByEmail,
  usersByPersonalEmail,
  type Vocabulary,
} from './users.lookup.js';
import { invitationMail, onboardingLink, welcomeMail } from './users.mail.js';
import { type UserPatch, usersRepo } from './users.repo.js';

export const DOMAIN_MISSING = 'Domain name does not exist for the specified company.';
export const TYPE_MISSING = 'The user type entered does not exist for the specified company.';
export const MANAGER_MISSING = 'Manager with specified email does not exist.';
export const ALREADY_ACTIVE = 'User already exists and is active.';

export type CreateResult =
  | { ok: true; id: number | null; email: string; reinvited: boolean }
  | { ok: false; status: 400 | 422; errors: FieldErrors };

export interface CreateDeps {
  db: Db;
  mailer: Mailer;
  config: { publicUrl: string };
}

type UserRow = typeof users.$inferSelect;
type Refs = { domainId: number; userTypeId: number; managerId: number | null; existing?: UserRow };

/** Reference checks in U3's order: unknown roles (422) first, then the four 400s. */
function checkRefs(
  input: CreateValues,
  vocab: Vocabulary,
  managers: Map<string, UserRow>,
  existing: Map<string, UserRow>,
): { status: 400 | 422; errors: FieldErrors } | { refs: Refs } {
  const unknownRoles = input.roles.filter((role) => !vocab.roles.has(role));
  if (unknownRoles.length > 0) {
    return { status: 422 as const, errors: { roles: unknownRoles.map((role) => `The selected role ${role} is invalid.`) } };
  }
  const domain = vocab.domains.get(input.domainName);
  if (!domain) return { status: 400 as const, errors: { domain_name: [DOMAIN_MISSING] } };
  const type = vocab.types.get(input.userType.toLowerCase());
  if (!type) return { status: 400 as const, errors: { user_types: [TYPE_MISSING] } };
  const manager = input.managerEmail ? managers.get(input.managerEmail) : undefined;
  if (input.managerEmail && !manager) return { status: 400 as const, errors: { manager_email: [MANAGER_MISSING] } };
  const found = existing.get(input.personalEmail);
  if (found?.isActive) return { status: 400 as const, errors: { personal_email: [ALREADY_ACTIVE] } };
  return { refs: { domainId: domain.id, userTypeId: type.id, managerId: manager?.id ?? null, existing: found } satisfies Refs };
}

export async function createUsers(deps: CreateDeps, companyId: number, inputs: CreateValues[], dryRun = false): Promise<CreateResult[]> {
  const results: CreateResult[] = new Array(inputs.length);
  await deps.db.transaction(async (tx) => {
    const vocab = await loadVocabulary(tx, companyId);
    let pending = inputs.map((_, index) => index);
    // A lost race is re-planned: the next round sees the winner's committed row.
    for (let round = 0; pending.length > 0 && round < 4; round++) {
      pending = await createRound(deps, tx, companyId, vocab, inputs, pending, results, dryRun);
    }
    if (pending.length > 0) throw internal('Failed to create user.');
  });
  return results;
}

async function createRound(
  deps: CreateDeps,
  tx: Tx,
  companyId: number,
  vocab: Vocabulary,
  inputs: CreateValues[],
  pending: number[],
  results: CreateResult[],
  dryRun: boolean,
): Promise<number[]> {
  const rows = pending.map((index) => ({ index, input: inputs[index] }));
  const [managers, existing] = await Promise.all([
    usersByEmail(
      tx,
      companyId,
      rows.flatMap(({ input }) => (input.managerEmail ? [input.managerEmail] : [])),
    ),
    usersByPersonalEmail(
      tx,
      companyId,
      rows.map(({ input }) => input.personalEmail),
    ),
  ]);

  const planned: { index: number; input: CreateValues; refs: Refs; needsEmail: boolean }[] = [];
  const seen = new Set<string>();
  for (const { index, input } of rows) {
    const checked = checkRefs(input, vocab, managers, existing);
    if ('errors' in checked) {
      results[index] = { ok: false, status: checked.status, errors: checked.errors };
    } else if (seen.has(input.personalEmail)) {
      // The same person twice in one batch (CSV): the first row wins, the second is reported.
      results[index] = { ok: false, status: 422, errors: { personal_email: ['The personal email appears more than once in this file.'] } };
    } else {
      seen.add(input.personalEmail);
      const old = checked.refs.existing;
      const needsEmail =
        !old || old.firstName !== input.firstName || old.lastName !== input.lastName || old.domainId !== checked.refs.domainId;
      planned.push({ index, input, refs: checked.refs, needsEmail });
    }
  }

  const derive = planned.filter((p) => p.needsEmail);
  const derived = await deriveEmails(
    tx,
    derive.map((p) => ({
      local: emailLocalPart(p.input.firstName, p.input.lastName),
      domain: p.input.domainName,
      own: p.refs.existing?.email,
    })),
  );
  const emailOf = new Map(derive.map((p, i) => [p.index, derived[i]]));
  const email = (p: (typeof planned)[number]) => emailOf.get(p.index) ?? (p.refs.existing as UserRow).email;

  if (dryRun) {
    for (const p of planned)
      results[p.index] = { ok: true, id: p.refs.existing?.id ?? null, email: email(p), reinvited: Boolean(p.refs.existing) };
    return [];
  }

  const expiresAt = new Date(Date.now() + ONBOARDING_TTL_MS);
  const fresh = planned.filter((p) => !p.refs.existing);
  const again = planned.filter((p) => p.refs.existing);
  const retry: number[] = [];
  const mails: MailMessage[] = [];
  const company =
    fresh.length > 0 ? await allocateEmployeeIds(tx, companyId, fresh.length) : { companyName: await companyName(tx, companyId), ids: [] };

  if (fresh.length > 0) {
    const uniqueIds = randomIds(fresh.length, 12);
    const tokens = randomIds(fresh.length, 32);
    const values = fresh.map((p, i) => ({
      companyId,
      employeeId: company.ids[i],
      firstName: p.input.firstName,
      lastName: p.input.lastName,
      email: email(p),
      personalEmail: p.input.personalEmail,
      uniqueId: uniqueIds[i],
      userTypeId: p.refs.userTypeId,
      domainId: p.refs.domainId,
      title: p.input.title,
      department: p.input.department,
      officeLocation: p.input.officeLocation,
      baseSalary: p.input.baseSalary,
      allowances: p.input.allowances,
      startDate: p.input.startDate,
      managerId: p.refs.managerId,
      bankName: p.input.bankName,
      accountNumber: p.input.accountNumber,
      roles: p.input.roles,
      isActive: p.input.isActive,
      onboardingCompleted: p.input.isActive,
      onboardingToken: p.input.isActive ? null : tokens[i],
      tokenExpiresAt: p.input.isActive ? null : expiresAt.toISOString(),
    }));
    // DO NOTHING on any unique index: a row that lost a race is simply not returned and retried.
    const inserted = await usersRepo.insertMany(tx, companyId, values);
    const idByUnique = new Map(inserted.map((row) => [row.uniqueId, row.id]));
    fresh.forEach((p, i) => {
      const id = idByUnique.get(values[i].uniqueId);
      if (id === undefined) {
        retry.push(p.index);
        return;
      }
      results[p.index] = { ok: true, id, email: values[i].email, reinvited: false };
      if (p.input.notify) mails.push(mailFor(deps, { ...values[i], companyId }, company.companyName));
    });
  }

  if (again.length > 0) {
    // Same personal e-mail as an inactive user: update that user and invite again (decisions.md §5).
    const patches: UserPatch[] = again.map((p) => ({
      id: (p.refs.existing as UserRow).id,
      first_name: p.input.firstName,
      last_name: p.input.lastName,
      email: email(p),
      domain_id: p.refs.domainId,
      user_type_id: p.refs.userTypeId,
      title: p.input.title ?? undefined,
      department: p.input.department ?? undefined,
      office_location: p.input.officeLocation ?? undefined,
      base_salary: p.input.baseSalary ?? undefined,
      allowances: p.input.allowances ?? undefined,
      start_date: p.input.startDate,
      manager_id: p.refs.managerId ?? undefined,
      bank_name: p.input.bankName ?? undefined,
      account_number: p.input.accountNumber ?? undefined,
      roles: p.input.roles,
      is_active: p.input.isActive,
      onboarding_completed: p.input.isActive,
      reset_token: true,
      onboarding_token: p.input.isActive ? null : newOnboardingToken(),
      token_expires_at: p.input.isActive ? null : expiresAt.toISOString(),
    }));
    let updated: number[] = [];
    try {
      // A savepoint: a derived e-mail taken meanwhile must not abort the whole batch.
      updated = await tx.transaction((sp) => usersRepo.patchMany(sp, companyId, patches));
    } catch (error) {
      if (!uniqueViolation(error)) throw error;
    }
    again.forEach((p, i) => {
      const patch = patches[i];
      if (!updated.includes(patch.id)) {
        retry.push(p.index);
        return;
      }
      results[p.index] = { ok: true, id: patch.id, email: patch.email as string, reinvited: true };
      if (p.input.notify) {
        const person = { companyId, firstName: p.input.firstName, personalEmail: p.input.personalEmail, email: patch.email as string };
        mails.push(mailFor(deps, { ...person, onboardingToken: patch.onboarding_token ?? null }, company.companyName));
      }
    });
  }

  await deps.mailer.sendMany(tx, mails);
  return retry;
}

function mailFor(
  deps: CreateDeps,
  user: { companyId: number; firstName: string; personalEmail: string; email: string; onboardingToken: string | null },
  company: string,
): MailMessage {
  return user.onboardingToken
    ? invitationMail(user, company, onboardingLink(deps.config.publicUrl, user.onboardingToken))
    : welcomeMail(user, company);
}
