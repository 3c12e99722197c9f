// All SQL of pay schedules: the schedules, their per-period exactly-once key and the batch claim
// of the schedules whose creation time has come (FOR UPDATE SKIP LOCKED, then a lease, so two
// instances never take the same schedule at once; the period key makes a lost lease harmless).
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';

export interface Include {
  user_types?: string[];
  departments?: string[];
  user_ids?: number[];
}

export interface ScheduleRow {
  id: number;
  company_id: number;
  name: string;
  frequency: 'monthly' | 'weekly' | 'bi-weekly';
  pay_day: string;
  first_period_start: string;
  create_days_before: number;
  include: Include | null;
  active: boolean;
  next_period_start: string | null;
  next_creation_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface ScheduleValues {
  name: string;
  frequency: string;
  payDay: string;
  firstPeriodStart: string;
  createDaysBefore: number;
  include: Include | null;
  active: boolean;
  nextPeriodStart: string | null;
  nextCreationAt: Date | null;
}

export interface PeriodRow {
  schedule_id: number;
  period_start: string;
  period_end: string;
  payment_date: string;
  run_id: string | null;
  error: string | null;
  created_at: Date | string;
}

const COLUMNS = sql.raw(`id, company_id, name, frequency, pay_day, first_period_start::text AS first_period_start,
  create_days_before, include, active, next_period_start::text AS next_period_start, next_creation_at, created_at, updated_at`);
const PERIOD_COLUMNS = sql.raw(`schedule_id, period_start::text AS period_start, period_end::text AS period_end,
  payment_date::text AS payment_date, run_id, error, created_at`);

const json = (value: unknown) => (value === null ? null : JSON.stringify(value));

export const paySchedulesRepo = {
  async insert(executor: Executor, companyId: number, v: ScheduleValues): Promise<ScheduleRow> {
    const [row] = await queryRows<ScheduleRow>(
      executor,
      sql`INSERT INTO pay_schedules (company_id, name, frequency, pay_day, first_period_start, create_days_before, include, active,
                                     next_period_start, next_creation_at)
          VALUES (${companyId}, ${v.name}, ${v.frequency}, ${v.payDay}, ${v.firstPeriodStart}, ${v.createDaysBefore},
                  ${json(v.include)}::jsonb, ${v.active}, ${v.nextPeriodStart}, ${v.nextCreationAt})
          RETURNING ${COLUMNS}`,
    );
    return row;
  },

  async update(executor: Executor, companyId: number, id: number, v: ScheduleValues): Promise<ScheduleRow | undefined> {
    const [row] = await queryRows<ScheduleRow>(
      executor,
      sql`UPDATE pay_schedules SET name = ${v.name}, frequency = ${v.frequency}, pay_day = ${v.payDay},
            first_period_start = ${v.firstPeriodStart}, create_days_before = ${v.createDaysBefore}, include = ${json(v.include)}::jsonb,
            active = ${v.active}, next_period_start = ${v.nextPeriodStart}, next_creation_at = ${v.nextCreationAt}, updated_at = now()
          WHERE company_id = ${companyId} AND id = ${id} AND deleted_at IS NULL
          RETURNING ${COLUMNS}`,
    );
    return row;
  },

  /** Locks the schedule while an update recomputes its next period (a creation holds the same lock). */
  async lock(executor: Executor, companyId: number, id: number): Promise<ScheduleRow | undefined> {
    const [row] = await queryRows<ScheduleRow>(
      executor,
      sql`SELECT ${COLUMNS} FROM pay_schedules WHERE company_id = ${companyId} AND id = ${id} AND deleted_at IS NULL FOR UPDATE`,
    );
    return row;
  },

  async find(executor: Executor, companyId: number, id: number): Promise<ScheduleRow | undefined> {
    const [row] = await queryRows<ScheduleRow>(
      executor,
      sql`SELECT ${COLUMNS} FROM pay_schedules WHERE company_id = ${companyId} AND id = ${id} AND deleted_at IS NULL`,
    );
    return row;
  },

  list(executor: Executor, companyId: number): Promise<ScheduleRow[]> {
    return queryRows<ScheduleRow>(
      executor,
      sql`SELECT ${COLUMNS} FROM pay_schedules WHERE company_id = ${companyId} AND deleted_at IS NULL ORDER BY id LIMIT 200`,
    );
  },

  /** Deleted schedules stop and disappear; their runs keep their schedule_id. */
  async softDelete(executor: Executor, companyId: number, id: number): Promise<boolean> {
    const rows = await queryRows<{ id: number }>(
      executor,
      sql`UPDATE pay_schedules SET deleted_at = now(), active = false, next_creation_at = NULL, updated_at = now()
          WHERE company_id = ${companyId} AND id = ${id} AND deleted_at IS NULL RETURNING id`,
    );
    return rows.length > 0;
  },

  /** The end of the latest period the schedule has made (or tried to): never made again. */
  async lastPeriodEnd(executor: Executor, companyId: number, id: number): Promise<string | null> {
    const [row] = await queryRows<{ last_end: string | null }>(
      executor,
      sql`SELECT max(period_end)::text AS last_end FROM pay_schedule_periods WHERE company_id = ${companyId} AND schedule_id = ${id}`,
    );
    return row?.last_end ?? null;
  },

  /** The schedule's latest periods, newest first. */
  periods(executor: Executor, companyId: number, id: number, limit: number): Promise<PeriodRow[]> {
    return queryRows<PeriodRow>(
      executor,
      sql`SELECT ${PERIOD_COLUMNS} FROM pay_schedule_periods WHERE company_id = ${companyId} AND schedule_id = ${id}
          ORDER BY period_start DESC LIMIT ${limit}`,
    );
  },

  /**
   * Claims up to `limit` active schedules whose creation time has come and that nobody holds,
   * leasing them for `leaseSeconds`: a crashed instance's claims come back when the lease ends.
   */
  claimDue(executor: Executor, limit: number, leaseSeconds: number): Promise<ScheduleRow[]> {
    return queryRows<ScheduleRow>(
      executor,
      sql`UPDATE pay_schedules SET claimed_until = now() + make_interval(secs => ${leaseSeconds})
          WHERE id IN (
            SELECT id FROM pay_schedules
            WHERE active AND next_creation_at <= now() AND (claimed_until IS NULL OR claimed_until < now())
            ORDER BY next_creation_at, id
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED)
          RETURNING ${COLUMNS}`,
    );
  },

  /** Takes the period's exactly-once key; false when it was already taken (the period exists). */
  async claimPeriod(
    executor: Executor,
    companyId: number,
    scheduleId: number,
    period: { start: string; end: string; paymentDate: string },
    error: string | null = null,
  ): Promise<boolean> {
    const rows = await queryRows<{ schedule_id: number }>(
      executor,
      sql`INSERT INTO pay_schedule_periods (schedule_id, company_id, period_start, period_end, payment_date, error)
          VALUES (${scheduleId}, ${companyId}, ${period.start}, ${period.end}, ${period.paymentDate}, ${error})
          ON CONFLICT (schedule_id, period_start) DO NOTHING RETURNING schedule_id`,
    );
    return rows.length > 0;
  },

  async linkRun(executor: Executor, companyId: number, scheduleId: number, periodStart: string, runId: string): Promise<void> {
    await executor.execute(
      sql`UPDATE pay_schedule_periods SET run_id = ${runId}
          WHERE company_id = ${companyId} AND schedule_id = ${scheduleId} AND period_start = ${periodStart}`,
    );
  },

  /**
   * Moves the schedule past `doneStart` (only if it still points there: a concurrent update or a
   * second instance moved it already) and releases the claim.
   */
  async advance(executor: Executor, scheduleId: number, doneStart: string, next: { start: string; creationAt: Date }): Promise<void> {
    await executor.execute(
      sql`UPDATE pay_schedules SET next_period_start = ${next.start}, next_creation_at = ${next.creationAt}, claimed_until = NULL
          WHERE id = ${scheduleId} AND next_period_start = ${doneStart}`,
    );
  },

  async release(executor: Executor, scheduleId: number): Promise<void> {
    await executor.execute(sql`UPDATE pay_schedules SET claimed_until = NULL WHERE id = ${scheduleId}`);
  },

  async companyFrequency(executor: Executor, companyId: number): Promise<string> {
    const [row] = await queryRows<{ payment_frequency: string }>(
      executor,
      sql`SELECT payment_frequency FROM companies WHERE id = ${companyId}`,
    );
    return row?.payment_frequency ?? 'monthly';
  },

  /** The names among `names` that are not user types of the company. */
  async unknownUserTypes(executor: Executor, companyId: number, names: string[]): Promise<string[]> {
    if (names.length === 0) return [];
    const rows = await queryRows<{ name: string }>(
      executor,
      sql`SELECT name FROM user_types WHERE company_id = ${companyId} AND name = ANY(${pgArray(names)}::text[])`,
    );
    const known = new Set(rows.map((row) => row.name));
    return names.filter((name) => !known.has(name));
  },

  /** The ids among `ids` that are not non-deleted users of the company. */
  async unknownUsers(executor: Executor, companyId: number, ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await queryRows<{ id: number }>(
      executor,
      sql`SELECT id FROM users WHERE company_id = ${companyId} AND deleted_at IS NULL AND id = ANY(${pgArray(ids)}::int[])`,
    );
    const known = new Set(rows.map((row) => row.id));
    return ids.filter((id) => !known.has(id));
  },

  /** The company's non-deleted users a schedule's `include` names: every given filter must match. */
  async includedUsers(executor: Executor, companyId: number, include: Include): Promise<number[]> {
    const types = include.user_types?.length ? include.user_types : null;
    const departments = include.departments?.length ? include.departments.map((d) => d.toLowerCase()) : null;
    const ids = include.user_ids?.length ? include.user_ids : null;
    const rows = await queryRows<{ id: number }>(
      executor,
      sql`SELECT u.id FROM users u LEFT JOIN user_types t ON t.id = u.user_type_id
          WHERE u.company_id = ${companyId} AND u.deleted_at IS NULL
            AND (${types === null} OR t.name = ANY(${pgArray(types ?? [])}::text[]))
            AND (${departments === null} OR lower(u.department) = ANY(${pgArray(departments ?? [])}::text[]))
            AND (${ids === null} OR u.id = ANY(${pgArray(ids ?? [])}::int[]))
          ORDER BY u.id`,
    );
    return rows.map((row) => row.id);
  },
};
