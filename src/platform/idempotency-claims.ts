// Who holds an Idempotency-Key, and the mark that commits it with the change it guards
// (docs/decisions.md, "Idempotency-Key after a crash"):
// - every server instance has a random id and a row in server_instances whose last_seen it renews
//   every HEARTBEAT_SECONDS; a claim names its owner and a random claim token;
// - a claim whose owner has not beaten for DEAD_AFTER_SECONDS (or older than STUCK_SECONDS) may be
//   taken over by a retry: one conditional UPDATE, which only one retry wins;
// - the handler's own transaction calls markIdempotentChange(tx, {kind, id}): one UPDATE that sets
//   committed_at and the resource, only while the claim token still holds the key, so a change
//   whose claim was taken over rolls back instead of happening twice.
import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Executor } from '../db/client.js';
import { conflict } from './errors.js';
import { idempotencyRepo, serverInstancesRepo } from './idempotency.repo.js';
import type { RecoverAnswer } from './types.js';

/** How often a live server renews server_instances.last_seen. */
export const HEARTBEAT_SECONDS = 5;
/** A claim whose owner has not beaten for this long belongs to a process that died. */
export const DEAD_AFTER_SECONDS = 15;
/** A claim without an answer this old is taken over even if its owner is alive (a request stuck that long). */
export const STUCK_SECONDS = 300;

export const IN_PROGRESS = 'A request with this Idempotency-Key is still in progress.';

/** What a request's change made or changed: its kind (`user`, `payroll-run`, …) and id. */
export interface IdempotentChange {
  kind: string;
  id: string | number;
}

/** The claim a request holds while its handler runs (set by the preHandler hook). */
export interface HeldClaim {
  companyId: number;
  key: string;
  token: string;
  /** The route's name (the test-only crash points are per route). */
  routeName: string | undefined;
  /** Set by markIdempotentChange once its UPDATE succeeded (the transaction may still roll back). */
  change?: IdempotentChange;
}

const held = new AsyncLocalStorage<HeldClaim>();

/** Runs `next` (the rest of the request: the handler) with the claim available to markIdempotentChange. */
export function runWithClaim(claim: HeldClaim, next: () => void): void {
  held.run(claim, next);
}

export function newClaimToken(): string {
  return crypto.randomBytes(12).toString('hex');
}

/**
 * Test-only crash points (config idempotencyTestCrash, docs/operations.md): `<route name>:in-transaction`
 * kills the process inside the change's transaction, before it commits; `<route name>:after-commit`
 * after the handler answered, before the answer is stored. Empty in production.
 */
let crashPoints: ReadonlySet<string> = new Set();

export function setCrashPoints(points: readonly string[]): void {
  crashPoints = new Set(points);
}

export function crashPoint(claim: HeldClaim | undefined, point: 'in-transaction' | 'after-commit'): void {
  if (crashPoints.size > 0 && claim?.routeName && crashPoints.has(`${claim.routeName}:${point}`)) process.kill(process.pid, 'SIGKILL');
}

/**
 * Marks the key of the request in progress as committed with `change`, in the transaction `tx`
 * that makes the change. No claim (no Idempotency-Key): nothing, no statement. A claim that was
 * taken over meanwhile (this request looked dead): 409, and the transaction rolls back.
 */
export async function markIdempotentChange(tx: Executor, change: IdempotentChange): Promise<void> {
  const claim = held.getStore();
  if (!claim) return;
  const marked = await idempotencyRepo.markCommitted(tx, claim, { kind: change.kind, id: String(change.id) });
  if (!marked) throw conflict(IN_PROGRESS);
  claim.change = change;
  crashPoint(claim, 'in-transaction');
}

/**
 * Takes over the claim of (company, key) if its request is dead: no answer, no committed change,
 * and an owner that stopped beating (or a claim stuck for STUCK_SECONDS; claims written before
 * owners existed only by that rule). True when this request now holds it with `token`.
 */
export async function takeOverDeadClaim(db: Executor, companyId: number, key: string, owner: string, token: string): Promise<boolean> {
  return idempotencyRepo.takeOverDead(db, { companyId, key, token }, owner, STUCK_SECONDS, DEAD_AFTER_SECONDS);
}

/**
 * This server's instance id and its heartbeat, from onReady to onClose. On the embedded database
 * only one process can hold DATA_DIR, so every other instance row is a dead process's: they are
 * deleted at start-up and their claims can be taken over at once. Rows of instances silent for a
 * day are deleted at start-up on both databases. A failed beat (database unreachable) is logged and
 * tried again at the next tick: the server keeps serving what it can.
 */
export function registerInstanceHeartbeat(app: FastifyInstance, db: Executor, embedded: boolean): string {
  const instanceId = `${process.pid}-${crypto.randomBytes(6).toString('hex')}`;
  let timer: NodeJS.Timeout | undefined;
  const beat = () => serverInstancesRepo.beat(db, instanceId);
  app.addHook('onReady', async () => {
    try {
      if (embedded) await serverInstancesRepo.deleteOthers(db, instanceId);
      else await serverInstancesRepo.deleteSilentForADay(db);
      await beat();
    } catch (error) {
      app.log.warn({ err: error }, 'could not record this server instance; retrying with the heartbeat');
    }
    timer = setInterval(() => {
      beat().catch((error) => app.log.warn({ err: error }, 'server instance heartbeat failed'));
    }, HEARTBEAT_SECONDS * 1000);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    // Stopped cleanly (in-flight requests finished): its claims are no one's now.
    await serverInstancesRepo.delete(db, instanceId).catch(() => undefined);
  });
  return instanceId;
}

/**
 * A route's `config.idempotency.recover`: `statusCode` and the body `rebuild` makes from the id of
 * the resource the change named (undefined: it is gone, answered with the documented 409).
 */
export function recoverAnswer(statusCode: number, rebuild: (request: FastifyRequest, id: string) => Promise<unknown>): RecoverAnswer {
  return async (request, change) => {
    const body = await rebuild(request, change.id);
    return body === undefined ? undefined : { statusCode, body };
  };
}
