// What an attempt's result means for its delivery (pure): a 2xx is delivered; anything else is
// retried after the schedule's next wait, and failed once the schedule is used up (attempt 1 plus
// one per wait: 8 attempts with the spec's 7 waits).
import type { AttemptResult } from './webhooks.sender.provider.js';
import type { Outcome } from './webhooks.sender.repo.js';

export const DISABLED_MESSAGE = 'The endpoint is disabled.';

export function planOutcome(deliveryId: number, attempts: number, result: AttemptResult, schedule: readonly number[]): Outcome {
  const base = { id: deliveryId, statusCode: result.statusCode, error: result.error, responseBody: result.responseBody };
  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  if (ok) return { ...base, status: 'delivered', retryInSeconds: null, error: null };
  if (attempts <= schedule.length) return { ...base, status: 'pending', retryInSeconds: schedule[attempts - 1] };
  return { ...base, status: 'failed', retryInSeconds: null };
}

/** A delivery whose endpoint was disabled after it was queued is not sent: failed, retryable by hand. */
export function disabledOutcome(deliveryId: number): Outcome {
  return { id: deliveryId, status: 'failed', retryInSeconds: null, statusCode: null, error: DISABLED_MESSAGE, responseBody: null };
}

export const UNREADABLE_MESSAGE = "Not sent: the endpoint's creator may no longer read this event.";

/** A delivery whose endpoint's creator lost the event's read scope after it was queued: failed, not sent. */
export function unreadableOutcome(deliveryId: number): Outcome {
  return { id: deliveryId, status: 'failed', retryInSeconds: null, statusCode: null, error: UNREADABLE_MESSAGE, responseBody: null };
}

/** The whole seconds at which wake-up jobs are needed for a batch's retries (one job per distinct second). */
export function wakeUpDelays(outcomes: readonly Outcome[]): number[] {
  const delays = new Set<number>();
  for (const outcome of outcomes)
    if (outcome.status === 'pending' && outcome.retryInSeconds !== null) delays.add(Math.ceil(outcome.retryInSeconds));
  return [...delays].sort((a, b) => a - b);
}
