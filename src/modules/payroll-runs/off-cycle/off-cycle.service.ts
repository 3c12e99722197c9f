// Off-cycle runs (docs/payroll-runs.md, "Off-cycle runs"): a bonus, a correction or a leaver's final
// pay, outside the monthly run. The same plan-and-write path as every run, then the same approval,
// funding, transfers, settlement, payslips, events and remittances: only the items differ.
import type { Db, Executor, Tx } from '../../../db/client.js';
import { invalid, invalidField } from '../../../platform/errors.js';
import { markIdempotentChange } from '../../../platform/idempotency-claims.js';
import {
  codesOf,
  type ItemInput,
  lockCompanyRuns,
  newTransactionId,
  type PlanPayItem,
  parseItemsInput,
  planAndWriteRunInParts,
  type ResolveItemTypes,
  resolveItems,
  validDate,
} from '../../paystubs/index.js';
import { announceRun } from '../payroll-runs.events.js';
import { MESSAGES, runView } from '../payroll-runs.lookup.service.js';
import type { CreateRunInput, Skipped } from '../payroll-runs.planner.js';
import { payrollRunsRepo } from '../payroll-runs.repo.js';
import { serializeRun, storedTotals } from '../payroll-runs.serializer.js';
import { OFF_CYCLE_REASONS, type OffCycleReason, planOffCycleItems } from './off-cycle.planner.js';

type Creator = (
  db: Executor,
  companyId: number,
  input: CreateRunInput,
  signedIn?: { userId: number; email: string },
) => Promise<{ id: number; email: string } | null>;

interface OffCycleUser {
  userId: number;
  inputs: ItemInput[];
}

/** The request checked field by field: 422 naming every bad field at once. */
function checkOffCycle(
  input: CreateRunInput,
  /** Where the request sits: the run's own body, or terminate's `final_pay` (its fields renamed). */
  within?: 'final_pay',
): {
  reason: OffCycleReason;
  users: OffCycleUser[];
  start: string;
  end: string;
  paymentDate: string;
  field: string;
} {
  const fields: Record<string, string[]> = {};
  const dateError = (field: string) => [`The ${field.replace(/_/g, ' ')} field must be a valid date in the format YYYY-MM-DD.`];
  if (input.payment_date === undefined) fields.payment_date = ['The payment date field is required.'];
  else if (!validDate(input.payment_date)) fields.payment_date = dateError('payment_date');
  for (const field of ['pay_period_start', 'pay_period_end'] as const) {
    const value = input[field];
    if (value !== undefined && !validDate(value)) fields[field] = dateError(field);
  }
  if (!OFF_CYCLE_REASONS.includes(input.reason as OffCycleReason)) fields.reason = [MESSAGES.offCycleReason];
  if (input.user_ids !== undefined) fields.user_ids = [MESSAGES.offCycleSalaryFields];
  if (input.items !== undefined) fields.items = [MESSAGES.offCycleSalaryFields];
  const users: OffCycleUser[] = [];
  if (!input.users || input.users.length === 0) fields.users = [MESSAGES.offCycleUsers];
  const seen = new Set<number>();
  (input.users ?? []).forEach((entry, i) => {
    if (seen.has(entry.user_id)) fields[`users.${i}.user_id`] = [MESSAGES.offCycleUserTwice];
    seen.add(entry.user_id);
    const parsed = parseItemsInput(entry.items, within ? `${within}.items` : `users.${i}.items`);
    if ('errors' in parsed) Object.assign(fields, parsed.errors);
    else if (parsed.items.length === 0) fields[within ? `${within}.items` : `users.${i}.items`] = [MESSAGES.offCycleUsers];
    else users.push({ userId: entry.user_id, inputs: parsed.items });
  });
  if (within && fields.payment_date) {
    fields[`${within}.payment_date`] = fields.payment_date;
    delete fields.payment_date;
  }
  if (Object.keys(fields).length > 0) throw invalid(fields);
  const paymentDate = input.payment_date as string;
  const start = input.pay_period_start ?? paymentDate;
  const end = input.pay_period_end ?? paymentDate;
  if (end < start) throw invalidField('pay_period_end', 'The pay period end field must be a date after or equal to pay period start.');
  return { reason: input.reason as OffCycleReason, users, start, end, paymentDate, field: within ?? 'users' };
}

export function createOffCycleRuns(deps: { db: Db; resolveItemTypes: ResolveItemTypes; creatorOf: Creator }) {
  const { db, resolveItemTypes, creatorOf } = deps;

  /** Each user's items with their types, or 422 naming each unknown type. */
  async function resolved(companyId: number, users: OffCycleUser[], within?: 'final_pay', tx?: Tx) {
    const types = await resolveItemTypes(companyId, codesOf(users.map((user) => user.inputs)), tx);
    const errors: Record<string, string[]> = {};
    const out: { userId: number; items: PlanPayItem[] }[] = [];
    users.forEach((user, i) => {
      const result = resolveItems(user.inputs, types, within ? `${within}.items` : `users.${i}.items`);
      if ('errors' in result) Object.assign(errors, result.errors);
      else out.push({ userId: user.userId, items: result.items });
    });
    if (Object.keys(errors).length > 0) throw invalid(errors);
    return out;
  }

  /** Writes the draft in `tx` (the caller's transaction: a run of its own, or terminate's final pay). */
  async function writeDraft(
    tx: Tx,
    companyId: number,
    request: ReturnType<typeof checkOffCycle>,
    users: { userId: number; items: PlanPayItem[] }[],
    creator: { id: number; email: string } | null,
  ) {
    const runId = newTransactionId();
    await lockCompanyRuns(tx, companyId);
    const candidates = await payrollRunsRepo.candidates(
      tx,
      companyId,
      users.map((user) => user.userId),
    );
    const { items, skipped } = planOffCycleItems({ paymentDate: request.paymentDate, users }, candidates);
    const { totals, failed } = await planAndWriteRunInParts(tx, companyId, runId, items);
    const all: Skipped[] = [...skipped];
    for (const f of failed) all.push({ user_id: items[f.index].userId, reason: Object.values(f.errors).flat().join(' ') });
    if (totals.employees === 0) {
      const reasons = all.map((skip) => skip.reason).join(' ');
      throw invalidField(request.field, reasons ? `${MESSAGES.nothingToPay} ${reasons}` : MESSAGES.nothingToPay);
    }
    all.sort((a, b) => a.user_id - b.user_id);
    const inserted = await payrollRunsRepo.insert(tx, companyId, {
      id: runId,
      source: 'salaries',
      kind: 'off_cycle',
      reason: request.reason,
      start: request.start,
      end: request.end,
      paymentDate: request.paymentDate,
      createdByEmail: creator?.email ?? null,
      createdByUserId: creator?.id ?? null,
      totals: storedTotals(totals),
      skipped: all,
    });
    return announceRun(tx, inserted, 'payroll_run.created');
  }

  return {
    async create(companyId: number, input: CreateRunInput, signedIn?: { userId: number; email: string }) {
      const request = checkOffCycle(input);
      const creator = await creatorOf(db, companyId, input, signedIn);
      const users = await resolved(companyId, request.users);
      const run = await db.transaction(async (tx: Tx) => {
        const row = await writeDraft(tx, companyId, request, users, creator);
        await markIdempotentChange(tx, { kind: 'payroll-run', id: row.id });
        return row;
      });
      return { message: MESSAGES.created, run: await runView(db, run) };
    },

    /**
     * Terminate's final pay (docs/users.md, "Leavers"): an off-cycle draft (`reason: final_pay`) with
     * the leaver's items, paid on `payment_date` (default: the exit date), in terminate's transaction.
     */
    async finalPay(tx: Tx, companyId: number, userId: number, exitDate: string, finalPay: { items: unknown; payment_date?: unknown }) {
      const request = checkOffCycle(
        {
          kind: 'off_cycle',
          reason: 'final_pay',
          payment_date: (finalPay.payment_date as string | undefined) ?? exitDate,
          users: [{ user_id: userId, items: finalPay.items }],
        },
        'final_pay',
      );
      const users = await resolved(companyId, request.users, 'final_pay', tx);
      const row = await writeDraft(tx, companyId, request, users, null);
      return serializeRun(row, (await payrollRunsRepo.counts(tx, companyId, [row.id])).get(row.id));
    },

    /** Reinstate: the leaver's final-pay drafts (not yet paid) are cancelled with the exit, in its transaction. */
    async cancelFinalPay(tx: Tx, companyId: number, userId: number) {
      for (const id of await payrollRunsRepo.openFinalPayRuns(tx, companyId, userId))
        await announceRun(tx, await payrollRunsRepo.cancel(tx, companyId, id), 'payroll_run.cancelled');
    },
  };
}
