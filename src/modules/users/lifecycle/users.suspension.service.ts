// Suspension (U10/U11, docs/users.md, "The users rules"). A suspension with an end is ended by the
// durable job `users.suspension-end` at `suspension_ends_at`. The job carries the end time it was
// scheduled for and only ends a suspension that still has exactly that end: a moved, ended or
// replaced suspension makes every older job a no-op, so a stale job can never end the wrong
// suspension. The job itself is users.suspension.jobs.ts.
import type { Db, Executor } from '../../../db/client.js';
import { endConsoleSessions } from '../../../platform/auth/console-access.js';
import { badRequest, DomainError, notFound } from '../../../platform/errors.js';
import type { JobQueue } from '../../../platform/jobs/queue.js';
import { announceUsers } from '../users.events.js';
import { usersRepo } from '../users.repo.js';
import { lifecycleRepo } from './users.lifecycle.repo.js';
import { SUSPENSION_END } from './users.suspension.jobs.js';
export const INVALID_ACTION = 'Invalid action.';
const MAX_MINUTES = 525_600; // one year
const MAX_HOURS = 8_760;

/** 422 `{error: message}` (the suspend routes use the settings-like family). */
const invalidInput = (message: string) => new DomainError('validation', message, {});

const DATETIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** `YYYY-MM-DD HH:mm:ss` read as UTC (docs/reference.md, "Common rules"), strictly: no rollover of 31 February. */
export function parseUtcDateTime(value: string): Date | undefined {
  const m = DATETIME.exec(value.trim());
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number);
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  const ok = date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && h < 24 && mi < 60 && s < 60;
  return ok ? date : undefined;
}

export interface SuspendInput {
  suspension_duration_type?: unknown;
  suspension_duration_value?: unknown;
  suspension_end_at?: unknown;
  clear_roles?: unknown;
  suspension_reason?: unknown;
}

/** Validates U10's body; returns the end (null = indefinite). */
export function suspensionEnd(input: SuspendInput, now = new Date()): { endsAt: Date | null; clearRoles: boolean; reason: string | null } {
  const type = input.suspension_duration_type;
  if (type === undefined || type === null || type === '') throw invalidInput('The suspension duration type field is required.');
  if (typeof type !== 'string' || !['minutes', 'hours', 'date', 'indefinite'].includes(type)) {
    throw invalidInput('The selected suspension duration type is invalid.');
  }
  const clear = input.clear_roles;
  if (clear !== undefined && clear !== null && typeof clear !== 'boolean')
    throw invalidInput('The clear roles field must be true or false.');
  const reason = input.suspension_reason;
  if (reason !== undefined && reason !== null && typeof reason !== 'string')
    throw invalidInput('The suspension reason field must be a string.');
  if (typeof reason === 'string' && reason.length > 1000)
    throw invalidInput('The suspension reason field must not be greater than 1000 characters.');
  const base = { clearRoles: clear === true, reason: typeof reason === 'string' && reason.trim() !== '' ? reason.trim() : null };

  if (type === 'indefinite') return { ...base, endsAt: null };
  if (type === 'date') {
    const raw = input.suspension_end_at;
    if (raw === undefined || raw === null || raw === '') {
      throw invalidInput('The suspension end at field is required when suspension duration type is date.');
    }
    const endsAt = typeof raw === 'string' ? parseUtcDateTime(raw) : undefined;
    if (!endsAt) throw invalidInput('The suspension end at field must match the format Y-m-d H:i:s.');
    if (endsAt <= now) throw invalidInput('The suspension end at field must be a date after now.');
    return { ...base, endsAt };
  }
  const raw = input.suspension_duration_value;
  if (raw === undefined || raw === null || raw === '') {
    throw invalidInput(`The suspension duration value field is required when suspension duration type is ${type}.`);
  }
  const value = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalidInput('The suspension duration value field must be an integer.');
  if (value < 1) throw invalidInput('The suspension duration value field must be at least 1.');
  const max = type === 'minutes' ? MAX_MINUTES : MAX_HOURS;
  if (value > max) throw invalidInput(`The suspension duration value field must not be greater than ${max}.`);
  return { ...base, endsAt: new Date(now.getTime() + value * (type === 'minutes' ? 60_000 : 3_600_000)) };
}

export function createSuspensionService(deps: { db: Db; jobs: JobQueue }) {
  const { db, jobs } = deps;

  async function schedule(tx: Executor, companyId: number, userId: number, endsAt: Date | null) {
    if (endsAt) await jobs.enqueue(tx, SUSPENSION_END, { companyId, userId, endsAt: endsAt.toISOString() }, { runAt: endsAt });
  }

  return {
    async suspend(companyId: number, userId: number, input: SuspendInput): Promise<void> {
      await db.transaction(async (tx) => {
        const user = await usersRepo.lockById(tx, companyId, userId);
        if (!user) throw notFound('User not found.');
        const { endsAt, clearRoles, reason } = suspensionEnd(input);
        // Suspending again replaces the end and reason; roles saved by the first suspension stay saved.
        const saveRoles = clearRoles && !user.suspendedRoles;
        await lifecycleRepo.suspend(tx, companyId, userId, {
          since: user.isSuspended && user.suspendedAt ? user.suspendedAt : null,
          endsAt,
          reason,
          ...(saveRoles ? { suspendedRoles: user.roles, roles: [] } : clearRoles ? { roles: [] } : {}),
        });
        // Sessions end now, not at their next page view: the end of the suspension must not revive them.
        await endConsoleSessions(tx, companyId, [userId]);
        await schedule(tx, companyId, userId, endsAt);
        await announceUsers(tx, companyId, [userId], 'user.suspended');
      });
    },

    async unsuspend(companyId: number, userId: number, option: unknown, newTime: unknown): Promise<void> {
      await db.transaction(async (tx) => {
        const user = await usersRepo.lockById(tx, companyId, userId);
        if (!user) throw notFound('User not found.');
        if (!user.isSuspended || (option !== 'immediately' && option !== 'future')) throw badRequest(INVALID_ACTION);
        if (option === 'immediately') {
          await lifecycleRepo.endSuspension(tx, companyId, userId);
          await announceUsers(tx, companyId, [userId], 'user.unsuspended');
          return;
        }
        if (newTime === undefined || newTime === null || newTime === '') {
          throw invalidInput('The new unsuspension time field is required when unsuspend option is future.');
        }
        const endsAt = typeof newTime === 'string' ? parseUtcDateTime(newTime) : undefined;
        if (!endsAt) throw invalidInput('The new unsuspension time field must match the format Y-m-d H:i:s.');
        if (endsAt <= new Date()) throw invalidInput('The new unsuspension time field must be a date after now.');
        await lifecycleRepo.moveSuspensionEnd(tx, companyId, userId, endsAt);
        await schedule(tx, companyId, userId, endsAt);
      });
    },
  };
}
