// Pay schedules (docs/payroll-runs.md, "Pay schedules"): CRUD, and the step the `pay-schedules.due`
// job runs: claim the schedules whose creation time has come, in batches, and create each one's
// period run through the payroll-runs service (the same rules as any run: approval, one salary per
// period, the company's frequency), exactly once per schedule and period.

import type { Db } from '../../db/client.js';
import { diffFields, recordAudit } from '../../platform/audit/index.js';
import { DomainError, invalid, invalidField, notFound } from '../../platform/errors.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import type { Mailer } from '../../platform/mail/outbox.js';
import { type PayrollRunsServices, PeriodAlreadyClaimed } from '../payroll-runs/index.js';
import { adminEmails } from '../webhooks/index.js';
import { runCreatedMail, runNotCreatedMail } from './pay-schedules.mail.js';
import { creationInstant, firstOpenPeriod, lagosDay, nextStart, type Period, periodFrom } from './pay-schedules.planner.js';
import { paySchedulesRepo as repo, type ScheduleRow, type ScheduleValues } from './pay-schedules.repo.js';
import { ruleOf, serializeSchedule } from './pay-schedules.serializer.js';
import { readSchedule, type ScheduleFields, type ScheduleInput } from './pay-schedules.validation.js';

export const SCHEDULE_NOT_FOUND = 'Pay schedule not found.';
export const SCHEDULES_FORBIDDEN = "You do not have permission to access this company's pay schedules.";
/** The schedule's fields an audit event's changes carry (as the API shows them). */
const AUDITED = ['name', 'frequency', 'pay_day', 'first_period_start', 'create_days_before', 'include', 'active'] as const;
export const PAY_SCHEDULES_DUE = 'pay-schedules.due';
/**
 * Schedules claimed per step, leased for LEASE_SECONDS (well past a batch's run creations; a
 * killed instance's claims come back when it ends). A lease that ends early costs nothing but
 * work: the period key refuses a second run.
 */
export const BATCH = 25;
const LEASE_SECONDS = 120;
const RECENT_RUNS = 12;

const MESSAGES = {
  created: 'Pay schedule created successfully.',
  listed: 'Pay schedules retrieved successfully.',
  shown: 'Pay schedule retrieved successfully.',
  updated: 'Pay schedule updated successfully.',
  deleted: 'Pay schedule deleted successfully.',
  noneIncluded: "No employee matches the schedule's include.",
};

const fieldsOf = (row: ScheduleRow): ScheduleFields => ({
  name: row.name,
  frequency: row.frequency,
  payDay: row.pay_day,
  firstPeriodStart: row.first_period_start,
  createDaysBefore: row.create_days_before,
  include: row.include,
  active: row.active,
});

/** A refusal's words, for the period record and the administrators' e-mail. */
const reasonOf = (error: DomainError) => (error.fields ? Object.values(error.fields).flat().join(' ') : error.message);

export interface DueStep {
  claimed: number;
  created: number;
  failed: number;
  /** Unexpected errors (the claim is released: the next step tries again). */
  errors: unknown[];
}

export function createPaySchedulesService(deps: {
  db: Db;
  mailer: Mailer;
  jobs: JobQueue;
  config: { publicUrl: string };
  runs: PayrollRunsServices['runs'];
  now?: () => Date;
}) {
  const { db, mailer, jobs, runs } = deps;
  const now = deps.now ?? (() => new Date());

  async function checkAgainstCompany(companyId: number, fields: ScheduleFields) {
    const errors: Record<string, string[]> = {};
    // A run from salaries pays one period of the company's frequency (docs/payroll-runs.md, "One salary per period").
    const companyFrequency = await repo.companyFrequency(db, companyId);
    if (fields.frequency !== companyFrequency)
      errors.frequency = [`The frequency must be the company's payment frequency (${companyFrequency}).`];
    const unknownTypes = await repo.unknownUserTypes(db, companyId, fields.include?.user_types ?? []);
    if (unknownTypes.length > 0) errors['include.user_types'] = [`Unknown user types: ${unknownTypes.join(', ')}.`];
    const unknownUsers = await repo.unknownUsers(db, companyId, fields.include?.user_ids ?? []);
    if (unknownUsers.length > 0) errors['include.user_ids'] = [`Unknown users: ${unknownUsers.join(', ')}.`];
    if (Object.keys(errors).length > 0) throw invalid(errors);
  }

  /** The stored values with the schedule's cursor: its first open period from today, or none while inactive. */
  function valuesOf(fields: ScheduleFields, lastCreatedEnd: string | null): ScheduleValues {
    const base = { ...fields, nextPeriodStart: null, nextCreationAt: null };
    if (!fields.active) return base;
    const period = firstOpenPeriod(fields, lagosDay(now()), lastCreatedEnd);
    return { ...base, nextPeriodStart: period.start, nextCreationAt: creationInstant(period.createOn) };
  }

  /** A schedule whose period is due already creates it at once (within a job turn), not at the next tick. */
  async function soonIfDue(tx: Parameters<Parameters<Db['transaction']>[0]>[0], row: ScheduleRow) {
    const at = row.next_creation_at ? new Date(row.next_creation_at) : null;
    if (at && at.getTime() <= now().getTime()) await jobs.enqueue(tx, PAY_SCHEDULES_DUE, { once: true });
  }

  async function find(companyId: number, id: number) {
    const row = await repo.find(db, companyId, id);
    if (!row) throw notFound(SCHEDULE_NOT_FOUND);
    return row;
  }

  /** Both lists of people e-mailed about a period, in its transaction. */
  async function mailAdmins(
    tx: Parameters<Parameters<Db['transaction']>[0]>[0],
    companyId: number,
    build: (to: string) => Parameters<Mailer['send']>[1],
  ) {
    const admins = await adminEmails(tx, companyId);
    await mailer.sendMany(tx, admins.map(build));
  }

  /** Creates the period the schedule points at; 'created', 'exists' (another instance did) or 'failed' (recorded, mailed). */
  async function createPeriod(schedule: ScheduleRow): Promise<'created' | 'exists' | 'failed'> {
    const companyId = schedule.company_id;
    const rule = ruleOf(schedule);
    const period = periodFrom(rule, schedule.next_period_start as string);
    const following = periodFrom(rule, nextStart(rule.frequency, period.start));
    const advanceTo = { start: following.start, creationAt: creationInstant(following.createOn) };
    try {
      const userIds = schedule.include ? await repo.includedUsers(db, companyId, schedule.include) : undefined;
      if (userIds && userIds.length === 0) throw invalidField('include', MESSAGES.noneIncluded);
      const input = { pay_period_start: period.start, pay_period_end: period.end, payment_date: period.paymentDate, user_ids: userIds };
      await runs.create(companyId, input, undefined, {
        scheduleId: schedule.id,
        claim: (tx) => repo.claimPeriod(tx, companyId, schedule.id, period),
        created: async (tx, run) => {
          await repo.linkRun(tx, companyId, schedule.id, period.start, run.id);
          await repo.advance(tx, schedule.id, period.start, advanceTo);
          const employees = Number(run.totals.employees ?? 0);
          await mailAdmins(tx, companyId, (to) =>
            runCreatedMail(companyId, to, schedule, period, { id: run.id, employees }, deps.config.publicUrl),
          );
        },
      });
      return 'created';
    } catch (error) {
      if (error instanceof PeriodAlreadyClaimed) {
        await repo.advance(db, schedule.id, period.start, advanceTo);
        return 'exists';
      }
      if (!(error instanceof DomainError) || error.code === 'internal' || error.code === 'unavailable') throw error;
      // Refused like any run would be (nobody to pay, a frequency the company changed): recorded once
      // against the period, the administrators told, and the schedule goes on.
      await db.transaction(async (tx) => {
        if (await repo.claimPeriod(tx, companyId, schedule.id, period, reasonOf(error)))
          await mailAdmins(tx, companyId, (to) => runNotCreatedMail(companyId, to, schedule, period, reasonOf(error)));
        await repo.advance(tx, schedule.id, period.start, advanceTo);
      });
      return 'failed';
    }
  }

  return {
    async create(companyId: number, input: ScheduleInput) {
      const fields = readSchedule(input);
      await checkAgainstCompany(companyId, fields);
      const row = await db.transaction(async (tx) => {
        const inserted = await repo.insert(tx, companyId, valuesOf(fields, null));
        await soonIfDue(tx, inserted);
        await recordAudit(tx, [
          {
            companyId,
            action: 'pay_schedule.created',
            target: { type: 'pay_schedule', id: inserted.id },
            changes: diffFields(null, serializeSchedule(inserted), AUDITED),
          },
        ]);
        return inserted;
      });
      return { message: MESSAGES.created, pay_schedule: serializeSchedule(row) };
    },

    async list(companyId: number) {
      const rows = await repo.list(db, companyId);
      return { message: MESSAGES.listed, data: rows.map((row) => serializeSchedule(row)) };
    },

    async show(companyId: number, id: number) {
      const row = await find(companyId, id);
      return { message: MESSAGES.shown, pay_schedule: serializeSchedule(row, await repo.periods(db, companyId, id, RECENT_RUNS)) };
    },

    /** Changes, pauses (`active: false`) or re-activates a schedule; its next period is worked out again from today. */
    async update(companyId: number, id: number, input: ScheduleInput) {
      const current = await find(companyId, id);
      const fields = readSchedule(input, fieldsOf(current));
      await checkAgainstCompany(companyId, fields);
      const row = await db.transaction(async (tx) => {
        if (!(await repo.lock(tx, companyId, id))) throw notFound(SCHEDULE_NOT_FOUND);
        const updated = await repo.update(tx, companyId, id, valuesOf(fields, await repo.lastPeriodEnd(tx, companyId, id)));
        if (!updated) throw notFound(SCHEDULE_NOT_FOUND);
        await soonIfDue(tx, updated);
        await recordAudit(tx, [
          {
            companyId,
            action: 'pay_schedule.updated',
            target: { type: 'pay_schedule', id },
            changes: diffFields(serializeSchedule(current), serializeSchedule(updated), AUDITED),
          },
        ]);
        return updated;
      });
      return { message: MESSAGES.updated, pay_schedule: serializeSchedule(row) };
    },

    async destroy(companyId: number, id: number) {
      await db.transaction(async (tx) => {
        if (!(await repo.softDelete(tx, companyId, id))) throw notFound(SCHEDULE_NOT_FOUND);
        await recordAudit(tx, [{ companyId, action: 'pay_schedule.deleted', target: { type: 'pay_schedule', id } }]);
      });
      return { message: MESSAGES.deleted };
    },

    /** One step of the job: claims up to `limit` due schedules and creates their periods, one transaction each. */
    async runDue(limit = BATCH): Promise<DueStep> {
      const claimed = await repo.claimDue(db, limit, LEASE_SECONDS);
      const step: DueStep = { claimed: claimed.length, created: 0, failed: 0, errors: [] };
      for (const schedule of claimed) {
        try {
          const outcome = await createPeriod(schedule);
          if (outcome === 'created') step.created += 1;
          if (outcome === 'failed') step.failed += 1;
        } catch (error) {
          step.errors.push(error);
          await repo.release(db, schedule.id).catch(() => undefined);
        }
      }
      return step;
    },
  };
}

export type PaySchedulesService = ReturnType<typeof createPaySchedulesService>;
export type { Period };
