// Payroll runs as plain functions over explicit dependencies: the API routes and the console call
// the same ones. Creation goes through the same plan-and-write path as P2
// (paystubs/paystubs.run.service.ts); every state change is one conditional UPDATE
// (payroll-runs.repo.ts), so a wrong or lost race is a 409 and never a second change. Approval is
// in approval/run-approval.service.ts, funding in transfers/funding.service.ts.
import type { Db, Executor, Tx } from '../../db/client.js';
import { conflict, invalid, invalidField } from '../../platform/errors.js';
import { markIdempotentChange } from '../../platform/idempotency-claims.js';
import type { Mailer } from '../../platform/mail/outbox.js';
import { PERIOD_TOO_EARLY } from '../../tax-engine/engine.types.js';
import { type Kobo, toKobo } from '../../tax-engine/money.js';
import { EARLIEST_PERIOD_END } from '../../tax-engine/statutory.js';
import { loanRepayments } from '../loans/index.js';
import {
  codesOf,
  type ItemInput,
  lockCompanyRuns,
  newTransactionId,
  parseItemsInput,
  planAndWriteRunInParts,
  type ResolveItemTypes,
  resolveBuiltIns,
  resolveItems,
  runTotals,
  validDate,
  type WrittenPaystub,
} from '../paystubs/index.js';
import { createOffCycleRuns } from './off-cycle/off-cycle.service.js';
import { periodMismatch } from './pay-periods.rules.js';
import { announceRun } from './payroll-runs.events.js';
import { findRun, MESSAGES, RUN_ID, runView } from './payroll-runs.lookup.service.js';
import { type CreateRunInput, type Override, planRunItems, type Skipped } from './payroll-runs.planner.js';

export type { CreateRunInput } from './payroll-runs.planner.js';

import { runApprovalRepo } from './approval/run-approval.repo.js';
import { createRunApprovals } from './approval/run-approval.service.js';
import { createRunList } from './payroll-runs.list.service.js';
import { payrollRunsRepo, type RunRow } from './payroll-runs.repo.js';
import { storedTotals } from './payroll-runs.serializer.js';

// The messages, the run lookup and its view live in payroll-runs.lookup.service.ts (approval shares them).
export { findRun, MESSAGES, RUN_NOT_FOUND, RUN_STATUSES, RUNS_FORBIDDEN, runView } from './payroll-runs.lookup.service.js';

/** A regular run's input once its period is known to be there. */
type RegularInput = CreateRunInput & { pay_period_start: string; pay_period_end: string; payment_date: string };

/**
 * A pay schedule's part in creating its period's run (docs/payroll-runs.md, "Pay schedules"), in the
 * run's own transaction: `claim` takes the period's exactly-once key before anything is computed
 * (false: another instance already has it, and nothing is written), `created` links the run and
 * tells the administrators. The run is otherwise created like any other.
 */
export interface ScheduledCreation {
  scheduleId: number;
  claim: (tx: Tx) => Promise<boolean>;
  created: (tx: Tx, run: RunRow) => Promise<void>;
}

/** Thrown inside a schedule's transaction when its period was already claimed: rolls it back. */
export class PeriodAlreadyClaimed extends Error {}

const normalEmail = (email: string | undefined) => (email?.trim() ? email.trim().toLowerCase() : null);

function checkDates(input: CreateRunInput): asserts input is RegularInput {
  const fields: Record<string, string[]> = {};
  for (const field of ['pay_period_start', 'pay_period_end', 'payment_date'] as const) {
    const value = input[field];
    if (value === undefined) fields[field] = [`The ${field.replace(/_/g, ' ')} field is required.`];
    else if (!validDate(value)) fields[field] = [`The ${field.replace(/_/g, ' ')} field must be a valid date in the format YYYY-MM-DD.`];
  }
  const { pay_period_start: start = '', pay_period_end: end = '' } = input;
  if (!fields.pay_period_start && !fields.pay_period_end && end < start)
    fields.pay_period_end = ['The pay period end field must be a date after or equal to pay period start.'];
  // Every item of a run shares its period, so the engine's per-item refusal (docs/payroll.md,
  // "Statutory amendments", amendment 2) is the run's: answered as such rather than as "nothing to
  // pay".
  else if (!fields.pay_period_end && end < EARLIEST_PERIOD_END) fields.pay_period_end = [PERIOD_TOO_EARLY];
  if (Object.keys(fields).length > 0) throw invalid(fields);
}

/** Overrides with their pay items parsed (types not yet resolved: `itemInputs`). */
function overridesOf(items: CreateRunInput['items'] = []): Map<number, Override & { itemInputs?: ItemInput[] }> {
  const overrides = new Map<number, Override & { itemInputs?: ItemInput[] }>();
  items.forEach((item, i) => {
    if (overrides.has(item.user_id)) throw invalidField(`items.${i}.user_id`, 'Each user may appear in items once.');
    const amount = (field: 'taxable_income' | 'other_allowances' | 'reimbursements'): Kobo | undefined => {
      const raw = item[field];
      if (raw === undefined || raw === null) return undefined;
      const kobo = toKobo(raw);
      if (kobo === null || kobo > 100_000_000_000_000n)
        throw invalidField(
          `items.${i}.${field}`,
          `The ${field.replace(/_/g, ' ')} must be a non-negative amount with at most 2 decimal places.`,
        );
      return kobo;
    };
    const parsed = parseItemsInput(item.items, `items.${i}.items`);
    if ('errors' in parsed) throw invalid(parsed.errors);
    overrides.set(item.user_id, {
      taxableIncome: amount('taxable_income'),
      otherAllowances: amount('other_allowances'),
      reimbursements: amount('reimbursements'),
      itemInputs: parsed.items,
    });
  });
  return overrides;
}

/** Resolves the overrides' item types (built-ins and the company's), or 422 naming each unknown one. */
async function withItemTypes(
  resolve: ResolveItemTypes,
  companyId: number,
  overrides: Map<number, Override & { itemInputs?: ItemInput[] }>,
): Promise<Map<number, Override>> {
  const entries = [...overrides.entries()];
  const codes = codesOf(entries.map(([, override]) => override.itemInputs));
  if (codes.length === 0) return overrides;
  const types = await resolve(companyId, codes);
  const errors: Record<string, string[]> = {};
  entries.forEach(([, override], i) => {
    const resolved = resolveItems(override.itemInputs ?? [], types, `items.${i}.items`);
    if ('errors' in resolved) Object.assign(errors, resolved.errors);
    else override.items = resolved.items;
  });
  if (Object.keys(errors).length > 0) throw invalid(errors);
  return overrides;
}

/** The header of a P2 call's run (a draft over the periods it wrote) and its event, in P2's transaction. */
export async function recordPaystubsRun(tx: Tx, companyId: number, runId: string, written: readonly WrittenPaystub[]): Promise<void> {
  const starts = written.map((w) => w.row.pay_period_start).sort();
  const ends = written.map((w) => w.row.pay_period_end).sort();
  const inserted = await payrollRunsRepo.insert(tx, companyId, {
    id: runId,
    source: 'paystubs',
    start: starts[0],
    end: ends[ends.length - 1],
    paymentDate: null,
    createdByEmail: null,
    createdByUserId: null,
    totals: storedTotals(runTotals(written.map((w) => w.planned))),
    skipped: [],
  });
  // A P2 call's run is a run like any other: platforms hear of it as they hear of POST /api/payroll-runs.
  await announceRun(tx, inserted, 'payroll_run.created');
}

/** Marks a request's Idempotency-Key with the run its transaction changed (none: nothing changed). */
async function marked<R extends RunRow | undefined>(tx: Tx, row: R): Promise<R> {
  if (row) await markIdempotentChange(tx, { kind: 'payroll-run', id: row.id });
  return row;
}

/** The run's creator as a user of the company: the console's signed-in administrator, or the user `created_by_email` names (422 when nobody). */
export async function creatorOf(db: Executor, companyId: number, input: CreateRunInput, signedIn?: { userId: number; email: string }) {
  if (signedIn) return { id: signedIn.userId, email: signedIn.email.toLowerCase() };
  const email = normalEmail(input.created_by_email);
  if (email === null) return null;
  const user = await runApprovalRepo.companyUser(db, companyId, email);
  if (!user) throw invalidField('created_by_email', MESSAGES.creatorUnknown);
  return { id: user.id, email };
}

export function createPayrollRunsService(deps: {
  db: Db;
  mailer: Mailer;
  config: { publicUrl: string };
  resolveItemTypes?: ResolveItemTypes;
}) {
  const { db, config } = deps;
  const resolveItemTypes = deps.resolveItemTypes ?? resolveBuiltIns;
  const offCycle = createOffCycleRuns({ db, resolveItemTypes, creatorOf });

  return {
    /**
     * A draft run from salaries (or off-cycle: off-cycle/off-cycle.service.ts); `signedIn` is the
     * console's administrator, who is its creator.
     */
    async create(companyId: number, input: CreateRunInput, signedIn?: { userId: number; email: string }, schedule?: ScheduledCreation) {
      if (input.kind === 'off_cycle') return offCycle.create(companyId, input, signedIn);
      if (input.reason !== undefined) throw invalidField('reason', MESSAGES.reasonOffCycleOnly);
      if (input.users !== undefined) throw invalidField('users', MESSAGES.usersOffCycleOnly);
      checkDates(input);
      const frequencyError = periodMismatch(
        await runApprovalRepo.companyFrequency(db, companyId),
        input.pay_period_start,
        input.pay_period_end,
      );
      if (frequencyError) throw invalidField('pay_period_end', frequencyError);
      const creator = await creatorOf(db, companyId, input, signedIn);
      const overrides = await withItemTypes(resolveItemTypes, companyId, overridesOf(input.items));
      const runId = newTransactionId();
      const run = await db.transaction(async (tx) => {
        await lockCompanyRuns(tx, companyId);
        if (schedule && !(await schedule.claim(tx))) throw new PeriodAlreadyClaimed();
        const named = input.user_ids ? [...new Set([...input.user_ids, ...overrides.keys()])] : undefined;
        const candidates = await payrollRunsRepo.candidates(tx, companyId, named);
        const request = { start: input.pay_period_start, end: input.pay_period_end, userIds: input.user_ids, overrides };
        const { items, skipped } = planRunItems(request, candidates);
        // Loan repayments are deductions capped by each planned net pay (docs/payroll.md, "Loans and salary advances").
        const { totals, failed } = await planAndWriteRunInParts(tx, companyId, runId, items, loanRepayments(companyId));
        const all: Skipped[] = [...skipped];
        for (const f of failed) all.push({ user_id: items[f.index].userId, reason: Object.values(f.errors).flat().join(' ') });
        if (totals.employees === 0) throw invalidField('user_ids', MESSAGES.nothingToPay);
        all.sort((a, b) => a.user_id - b.user_id);
        const inserted = await payrollRunsRepo.insert(tx, companyId, {
          id: runId,
          source: 'salaries',
          start: input.pay_period_start,
          end: input.pay_period_end,
          paymentDate: input.payment_date,
          createdByEmail: creator?.email ?? null,
          createdByUserId: creator?.id ?? null,
          totals: storedTotals(totals),
          skipped: all,
          scheduleId: schedule?.scheduleId ?? null,
        });
        if (schedule) await schedule.created(tx, inserted);
        await markIdempotentChange(tx, { kind: 'payroll-run', id: runId });
        return announceRun(tx, inserted, 'payroll_run.created');
      });
      return { message: MESSAGES.created, run: await runView(db, run) };
    },

    ...createRunList({ db, config }),

    /**
     * A run action's answer rebuilt from the run after a crash lost it (docs/decisions.md,
     * "Idempotency-Key after a crash"): the action's message and the run as it is now.
     */
    async recoverAnswer(companyId: number, id: string, message: string) {
      const row = RUN_ID.test(id) ? await payrollRunsRepo.find(db, companyId, id) : undefined;
      return row ? { message, run: await runView(db, row) } : undefined;
    },

    async show(companyId: number, id: string) {
      return { message: MESSAGES.shown, run: await runView(db, await findRun(db, companyId, id)) };
    },

    ...createRunApprovals(deps),

    /** Terminate's final pay and reinstate's undoing of it (docs/users.md, "Leavers"), in their transactions. */
    finalPay: offCycle.finalPay,
    cancelFinalPay: offCycle.cancelFinalPay,

    async cancel(companyId: number, id: string) {
      await findRun(db, companyId, id);
      const cancelled = await db.transaction(async (tx) => {
        const row = await marked(tx, await payrollRunsRepo.cancel(tx, companyId, id));
        // A cancelled run's approval link stops working with it.
        if (row) await runApprovalRepo.deleteRequest(tx, companyId, id);
        return announceRun(tx, row, 'payroll_run.cancelled');
      });
      if (!cancelled) throw conflict(MESSAGES.onlyOpenCancelled);
      return { message: MESSAGES.cancelled, run: await runView(db, cancelled) };
    },
  };
}

export type PayrollRunsService = ReturnType<typeof createPayrollRunsService>;
