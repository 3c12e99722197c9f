// The plan of one round of user creation (U3 is a batch of one, a CSV chunk of U8 a batch of many).
// Pure: no database, no clock, no randomness, so every decision is a table test
// (users.create.planner.test.ts). users.create.service.ts loads the inputs, derives e-mails and writes.
//
// Contract:
// - planCreates(rows, context): `context` is what the caller loaded in the batch's transaction (the
//   company's vocabulary, the managers and the users with these personal e-mails). Each row either
//   fails (U3's order: unknown roles 422, a console role the caller may not grant 403, then the four
//   400s; a personal e-mail seen earlier in the batch 422) or is planned: a new user, or the re-invite
//   of the inactive user who has that personal e-mail. `needsEmail`: a company e-mail must be
//   derived (a new user, or a re-invite whose names or domain changed).
// - planCreateRows(companyId, planned, generated): the rows to INSERT (new users) and the patches to
//   apply (re-invites), in planning order, with the e-mails, employee numbers, unique ids and
//   onboarding tokens the caller generated. An active user gets no onboarding token.

import { holdsConsoleRole } from '../../../platform/auth/console-access.js';
import type { FieldErrors } from '../../../platform/errors.js';
import type { CreateValues } from '../fields/users.fields.validation.js';
import type { Vocabulary } from '../users.lookup.repo.js';
import type { UserPatch, UserRow } from '../users.repo.js';
import type { NewUser } from './users.create.repo.js';

export const DOMAIN_MISSING = 'Domain name does not exist for the specified company.';
export const TYPE_MISSING = 'The user type entered does not exist for the specified company.';
export const MANAGER_MISSING = 'Manager with specified email does not exist.';
export const ALREADY_ACTIVE = 'User already exists and is active.';
export const DUPLICATE_PERSONAL_EMAIL = 'The personal email appears more than once in this file.';

export type CreateResult =
  | { ok: true; id: number | null; email: string; reinvited: boolean }
  | { ok: false; status: 400 | 403 | 422; errors: FieldErrors };
export type CreateFailure = Extract<CreateResult, { ok: false }>;

export interface Refs {
  domainId: number;
  userTypeId: number;
  managerId: number | null;
  /** The inactive user with this personal e-mail: re-invited instead of created. */
  existing?: UserRow;
}

export interface CreateContext {
  vocab: Vocabulary;
  /** Live users of the company by company e-mail (manager_email). */
  managers: Map<string, UserRow>;
  /** Live users of the company by personal e-mail. */
  existing: Map<string, UserRow>;
  mayGrantConsoleAccess: boolean;
}

export interface PlannedCreate {
  index: number;
  input: CreateValues;
  refs: Refs;
  needsEmail: boolean;
}

/** Reference checks of one row, in U3's order. */
export function checkRefs(input: CreateValues, context: CreateContext): CreateFailure | { refs: Refs } {
  const { vocab, managers, existing } = context;
  const unknownRoles = input.roles.filter((role) => !vocab.roles.has(role));
  if (unknownRoles.length > 0) {
    return { ok: false, status: 422, errors: { roles: unknownRoles.map((role) => `The selected role ${role} is invalid.`) } };
  }
  if (!context.mayGrantConsoleAccess && holdsConsoleRole(input.roles)) return { ok: false, status: 403, errors: { roles: ['forbidden'] } };
  const domain = vocab.domains.get(input.domainName);
  if (!domain) return { ok: false, status: 400, errors: { domain_name: [DOMAIN_MISSING] } };
  const type = vocab.types.get(input.userType.toLowerCase());
  if (!type) return { ok: false, status: 400, errors: { user_types: [TYPE_MISSING] } };
  const manager = input.managerEmail ? managers.get(input.managerEmail) : undefined;
  if (input.managerEmail && !manager) return { ok: false, status: 400, errors: { manager_email: [MANAGER_MISSING] } };
  const found = existing.get(input.personalEmail);
  if (found?.isActive) return { ok: false, status: 400, errors: { personal_email: [ALREADY_ACTIVE] } };
  return { refs: { domainId: domain.id, userTypeId: type.id, managerId: manager?.id ?? null, existing: found } };
}

export function planCreates(
  rows: { index: number; input: CreateValues }[],
  context: CreateContext,
): { failed: { index: number; result: CreateFailure }[]; planned: PlannedCreate[] } {
  const failed: { index: number; result: CreateFailure }[] = [];
  const planned: PlannedCreate[] = [];
  const seen = new Set<string>();
  for (const { index, input } of rows) {
    const checked = checkRefs(input, context);
    if (!('refs' in checked)) {
      failed.push({ index, result: checked });
    } else if (seen.has(input.personalEmail)) {
      // The same person twice in one batch (CSV): the first row wins, the second is reported.
      failed.push({ index, result: { ok: false, status: 422, errors: { personal_email: [DUPLICATE_PERSONAL_EMAIL] } } });
    } else {
      seen.add(input.personalEmail);
      const old = checked.refs.existing;
      const needsEmail =
        !old || old.firstName !== input.firstName || old.lastName !== input.lastName || old.domainId !== checked.refs.domainId;
      planned.push({ index, input, refs: checked.refs, needsEmail });
    }
  }
  return { failed, planned };
}

/** What the caller generated for a round: derived e-mails by row index, and random values. */
export interface Generated {
  emails: Map<number, string>;
  /** One per new user, in planning order. */
  employeeIds: string[];
  uniqueIds: string[];
  tokens: string[];
  /** One per re-invite, in planning order. */
  reinviteTokens: string[];
  /** ISO time the onboarding tokens expire. */
  tokenExpiresAt: string;
}

/** The company e-mail of a planned row: derived, or the re-invited user's own. */
export const plannedEmail = (p: PlannedCreate, emails: Map<number, string>) => emails.get(p.index) ?? (p.refs.existing as UserRow).email;

export function planCreateRows(
  planned: PlannedCreate[],
  generated: Generated,
): { fresh: PlannedCreate[]; values: NewUser[]; again: PlannedCreate[]; patches: UserPatch[] } {
  const fresh = planned.filter((p) => !p.refs.existing);
  const again = planned.filter((p) => p.refs.existing);
  const expires = (isActive: boolean) => (isActive ? null : generated.tokenExpiresAt);
  const values: NewUser[] = fresh.map((p, i) => ({
    employeeId: generated.employeeIds[i],
    firstName: p.input.firstName,
    lastName: p.input.lastName,
    email: plannedEmail(p, generated.emails),
    personalEmail: p.input.personalEmail,
    uniqueId: generated.uniqueIds[i],
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
    bankCode: p.input.bankCode,
    roles: p.input.roles,
    isActive: p.input.isActive,
    onboardingToken: p.input.isActive ? null : generated.tokens[i],
    tokenExpiresAt: expires(p.input.isActive),
  }));
  // Same personal e-mail as an inactive user: update that user and invite again (docs/users.md,
  // "The users rules").
  const patches: UserPatch[] = again.map((p, i) => ({
    id: (p.refs.existing as UserRow).id,
    first_name: p.input.firstName,
    last_name: p.input.lastName,
    email: plannedEmail(p, generated.emails),
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
    ...(p.input.accountNumber === null ? {} : { bank_code: p.input.bankCode, bank_identity_changed: true }),
    roles: p.input.roles,
    is_active: p.input.isActive,
    onboarding_completed: p.input.isActive,
    reset_token: true,
    onboarding_token: p.input.isActive ? null : generated.reinviteTokens[i],
    token_expires_at: expires(p.input.isActive),
  }));
  return { fresh, values, again, patches };
}
