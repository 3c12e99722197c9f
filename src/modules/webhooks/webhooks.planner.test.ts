// The retry schedule of the spec, on the default configuration (no test shortening it): 5 s, 5 min,
// 30 min, 2 h, 5 h, 10 h, 10 h after each failure, then `failed` after the 8th attempt.
import { describe, expect, it } from 'vitest';
import { loadConfig, WEBHOOK_RETRY_SCHEDULE } from '../../config.js';
import { planOutcome, wakeUpDelays } from './webhooks.planner.js';

const failed = { statusCode: 500, error: 'The receiver answered 500.', responseBody: 'x' };
const timedOut = { statusCode: null, error: 'No answer within 10000 ms.', responseBody: null };
const ok = { statusCode: 204, error: null, responseBody: null };

describe('retry schedule', () => {
  it('is the spec schedule by default, with a 10 s timeout', () => {
    const config = loadConfig({}, {});
    expect(config.webhookRetrySchedule).toEqual([5, 300, 1800, 7200, 18_000, 36_000, 36_000]);
    expect(config.webhookTimeoutMs).toBe(10_000);
    expect(loadConfig({}, { WEBHOOK_RETRY_SCHEDULE: '0.5, 1,2' }).webhookRetrySchedule).toEqual([0.5, 1, 2]);
    expect(() => loadConfig({}, { WEBHOOK_RETRY_SCHEDULE: '5,soon' })).toThrow('WEBHOOK_RETRY_SCHEDULE');
  });

  it('waits the next step after each failed attempt (status or timeout), then fails after the 8th', () => {
    const waits = [];
    for (let attempt = 1; attempt <= 8; attempt++) {
      const outcome = planOutcome(1, attempt, attempt % 2 ? failed : timedOut, WEBHOOK_RETRY_SCHEDULE);
      if (attempt < 8) expect(outcome.status).toBe('pending');
      else expect(outcome).toMatchObject({ status: 'failed', retryInSeconds: null });
      waits.push(outcome.retryInSeconds);
    }
    expect(waits).toEqual([5, 300, 1800, 7200, 18_000, 36_000, 36_000, null]);
    // About a day and a half from the first attempt to the last.
    expect(WEBHOOK_RETRY_SCHEDULE.reduce((a, b) => a + b, 0) / 3600).toBeCloseTo(27.6, 1);
  });

  it('a 2xx is delivered on any attempt; a 3xx (redirects are not followed) is a failure', () => {
    expect(planOutcome(1, 3, ok, WEBHOOK_RETRY_SCHEDULE)).toMatchObject({ status: 'delivered', retryInSeconds: null, error: null });
    expect(
      planOutcome(1, 1, { statusCode: 302, error: 'The receiver answered 302.', responseBody: null }, WEBHOOK_RETRY_SCHEDULE),
    ).toMatchObject({
      status: 'pending',
      retryInSeconds: 5,
    });
  });

  it('wakes the sender once per distinct retry second', () => {
    const outcomes = [1, 2, 3].map((id) => planOutcome(id, id === 3 ? 2 : 1, failed, WEBHOOK_RETRY_SCHEDULE));
    expect(wakeUpDelays(outcomes)).toEqual([5, 300]);
  });
});
