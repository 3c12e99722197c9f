// Creating users: U3 is a batch of one, a CSV chunk of U8 is a batch of many. Same rules, same
// code. One transaction per batch; all lookups batched; rows lost to a concurrent writer (same
// personal e-mail, same derived company e-mail) are re-planned against the winner's row.
// Employee numbers are reserved before the transaction, in a statement of their own, so that one
// company's creates do not queue on its row until each other's commit (docs/users.md, "Employee
// numbers"): a number reserved and not used is given back if no one reserved since, else it is a
// gap; never a repeat.
import type { Db, Tx } from '../../../db/client.js';
import { uniqueViolation } from '../../../platform/db-errors.js';
import type { Mailer, MailMessage } from '../../../platform/mail/outbox.js';
import { bankChangeNotices } from '../bank/users.bank-change.mail.js';
import type { CreateValues } from '../fields/users.fields.validation.js';
import { statutoryRepo } from '../fields/users.statutory.repo.js';
import type { UserFlatRow } from '../users.flat-row.repo.js';
import {
  allocateEmployeeIds,
  createLookup,
  loadVocabulary,
  releaseEmployeeNumbers,
  reserveEmployeeNumbers,
  type Vocabulary,
} from '../users.lookup.repo.js';
import { emailLocalPart, emailStemKeys, freeEmails, inRounds, ONBOARDING_TTL_MS, randomIds, stemOf } from '../users.lookup.service.js';
import { invitationMail, onboardingLink, welcomeMail } from '../users.mail.js';
import { type UserRow, usersRepo } from '../users.repo.js';
import { type CreateResult, planCreateRows, planCreates, plannedEmail } from './users.create.planner.js';
import { createRepo } from './users.create.repo.js';

export { ALREADY_ACTIVE, type CreateResult, DOMAIN_MISSING, MANAGER_MISSING, TYPE_MISSING } from './users.create.planner.js';

export interface CreateDeps {
  db: Db;
  mailer: Mailer;
  config: { publicUrl: string };
}

interface CreateOptions {
  dryRun: boolean;
  mayGrantConsoleAccess: boolean;
  /** Return each created user's flat row (U3 answers and announces it without reading it again). */
  withRows: boolean;
}

/** What a batch learnt before its writes, handed to `afterWrite`. */
export interface CreateContext {
  /** False when no webhook endpoint could hear of the company's events: nothing to record. */
  announce: boolean;
  /** The flat row (users.flat-row.repo.ts) of each user created by an insert, by id (`withRows` only). */
  rows: Map<number, UserFlatRow>;
}

/** The batch's reserved employee numbers not used yet, and the company's name (for the e-mails). */
interface NumberPool {
  companyName: string;
  /** The reservation made before the transaction: its last number and how many. */
  last: number;
  reserved: number;
  ids: string[];
  /** Read by the reservation's statement (reserveEmployeeNumbers); a dry run reads it in the transaction. */
  vocabulary?: Vocabulary;
  announce: boolean;
}

const numberOf = (employeeId: string) => Number(employeeId.slice(employeeId.lastIndexOf('-') + 1));

/**
 * After the batch: the unused numbers at the top of the reservation (all of it if the transaction
 * rolled back) go back if no one has reserved since. Failing that they are a gap, so an error
 * here is not the batch's.
 */
async function releaseUnused(db: Db, companyId: number, pool: NumberPool, rolledBack: boolean): Promise<void> {
  const unused = new Set(pool.ids.map(numberOf));
  let count = rolledBack ? pool.reserved : 0;
  while (!rolledBack && count < pool.reserved && unused.has(pool.last - count)) count++;
  if (count === 0) return;
  await releaseEmployeeNumbers(db, companyId, pool.last, count).catch(() => false);
}

/** `count` numbers from the pool; a shortfall is reserved in the transaction (see allocateEmployeeIds). */
async function takeNumbers(tx: Tx, companyId: number, pool: NumberPool, count: number): Promise<string[]> {
  if (pool.ids.length < count) pool.ids.push(...(await allocateEmployeeIds(tx, companyId, count - pool.ids.length)).ids);
  return pool.ids.splice(0, count);
}

/** `mayGrantConsoleAccess`: the caller's token has `all`, so it may give a console role (docs/users.md). */
export async function createUsers(
  deps: CreateDeps,
  companyId: number,
  inputs: CreateValues[],
  dryRun = false,
  mayGrantConsoleAccess = false,
  /** Runs in the transaction after the writes (the single-user route announces user.created). */
  afterWrite?: (tx: Tx, results: CreateResult[], context: CreateContext) => Promise<void>,
  withRows = false,
): Promise<CreateResult[]> {
  const options: CreateOptions = { dryRun, mayGrantConsoleAccess, withRows };
  const results: CreateResult[] = new Array(inputs.length);
  const context: CreateContext = { announce: true, rows: new Map() };
  // On deps.db, not in the transaction: committed at once (one round trip per batch).
  const pool: NumberPool = dryRun
    ? { companyName: '', last: 0, reserved: 0, ids: [], announce: true }
    : await reserveEmployeeNumbers(
        deps.db,
        companyId,
        inputs.map((input) => input.personalEmail),
      );
  let rolledBack = true;
  try {
    context.announce = pool.announce;
    await deps.db.transaction(async (tx) => {
      const vocab = pool.vocabulary ?? (await loadVocabulary(tx, companyId));
      // Before any write (docs/users.md, "Employee numbers"): creates of one name take turns for its
      // e-mail. The locks travel with the first round's reads (createLookup).
      let lockKeys = dryRun ? [] : emailStemKeys(inputs);
      await inRounds(
        inputs.length,
        (pending) => {
          const keys = lockKeys;
          lockKeys = [];
          return createRound(deps, tx, companyId, vocab, inputs, pending, results, options, pool, keys, context);
        },
        'Failed to create user.',
      );
      await afterWrite?.(tx, results, context);
    });
    rolledBack = false;
  } finally {
    if (!dryRun) await releaseUnused(deps.db, companyId, pool, rolledBack);
  }
  return results;
}

/** One round: load, plan (users.create.planner.ts), write; returns the rows that lost a race. */
async function createRound(
  deps: CreateDeps,
  tx: Tx,
  companyId: number,
  vocab: Vocabulary,
  inputs: CreateValues[],
  pending: number[],
  results: CreateResult[],
  options: CreateOptions,
  pool: NumberPool,
  lockKeys: number[],
  context: CreateContext,
): Promise<number[]> {
  const rows = pending.map((index) => ({ index, input: inputs[index] }));
  // One statement: the stem locks (first round), the addresses taken for every row's stem (a row
  // that turns out to keep its e-mail only asked for a few more), the re-invites, the managers.
  const { managers, existing, taken } = await createLookup(tx, companyId, {
    keys: lockKeys,
    addresses: rows.map(({ input }) => {
      const exact = `${emailLocalPart(input.firstName, input.lastName)}@${input.domainName}`;
      return { stem: stemOf(exact), exact };
    }),
    personalEmails: rows.map(({ input }) => input.personalEmail),
    managerEmails: rows.flatMap(({ input }) => (input.managerEmail ? [input.managerEmail] : [])),
  });
  const { failed, planned } = planCreates(rows, { vocab, managers, existing, mayGrantConsoleAccess: options.mayGrantConsoleAccess });
  for (const { index, result } of failed) results[index] = result;

  const derive = planned.filter((p) => p.needsEmail);
  const derived = freeEmails(
    taken,
    derive.map((p) => ({
      local: emailLocalPart(p.input.firstName, p.input.lastName),
      domain: p.input.domainName,
      own: p.refs.existing?.email,
    })),
  );
  const emails = new Map(derive.map((p, i) => [p.index, derived[i]]));

  if (options.dryRun) {
    for (const p of planned) {
      results[p.index] = { ok: true, id: p.refs.existing?.id ?? null, email: plannedEmail(p, emails), reinvited: Boolean(p.refs.existing) };
    }
    return [];
  }

  const freshCount = planned.filter((p) => !p.refs.existing).length;
  const company = { companyName: pool.companyName };
  const { fresh, values, again, patches } = planCreateRows(planned, {
    emails,
    employeeIds: await takeNumbers(tx, companyId, pool, freshCount),
    uniqueIds: randomIds(freshCount, 12),
    tokens: randomIds(freshCount, 32),
    reinviteTokens: randomIds(planned.length - freshCount, 32),
    tokenExpiresAt: new Date(Date.now() + ONBOARDING_TTL_MS).toISOString(),
  });
  const retry: number[] = [];
  const mails: MailMessage[] = [];
  const statutory: Parameters<typeof statutoryRepo.writeMany>[2] = [];

  if (values.length > 0) {
    // DO NOTHING on any unique index: a row that lost a race is simply not returned and retried.
    // The flat row's type and manager names, from what this round loaded (createRepo.insertMany says why).
    const names = options.withRows
      ? fresh.map((p) => {
          const manager = p.input.managerEmail ? managers.get(p.input.managerEmail) : undefined;
          const type = vocab.types.get(p.input.userType.toLowerCase());
          return { typeName: type?.name ?? '', managerFirstName: manager?.firstName ?? null, managerLastName: manager?.lastName ?? null };
        })
      : undefined;
    const inserted = await createRepo.insertMany(tx, companyId, values, names);
    const idByUnique = new Map(inserted.map((row) => [row.uniqueId, row.id]));
    for (const row of inserted) if (row.row) context.rows.set(row.id, row.row);
    fresh.forEach((p, i) => {
      const id = idByUnique.get(values[i].uniqueId);
      if (id === undefined) {
        retry.push(p.index);
        pool.ids.unshift(values[i].employeeId as string); // not inserted: the number serves the retry
        return;
      }
      results[p.index] = { ok: true, id, email: values[i].email, reinvited: false };
      statutory.push({ id, values: p.input.statutory ?? {} });
      if (p.input.notify) mails.push(mailFor(deps, { ...values[i], companyId }, company.companyName));
    });
  }

  if (patches.length > 0) {
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
      // A re-invitation may replace the bank details: the employee hears of it (users.bank-change.mail.ts).
      mails.push(
        ...bankChangeNotices(company.companyName, [{ companyId, user: p.refs.existing as UserRow, patch, email: patch.email as string }]),
      );
      statutory.push({ id: patch.id, values: p.input.statutory ?? {} });
      if (p.input.notify) {
        const person = { companyId, firstName: p.input.firstName, personalEmail: p.input.personalEmail, email: patch.email as string };
        mails.push(mailFor(deps, { ...person, onboardingToken: patch.onboarding_token ?? null }, company.companyName));
      }
    });
  }

  await statutoryRepo.writeMany(tx, companyId, statutory);
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
