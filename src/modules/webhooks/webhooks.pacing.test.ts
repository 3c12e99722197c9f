// Batch pacing: fast attempts run `working` at a time; slow ones stop counting after the patience.
import { describe, expect, it } from 'vitest';
import { mapPaced } from './webhooks.pacing.rules.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('mapPaced', () => {
  it('runs fast attempts at most `working` at a time, keeping the order of results', async () => {
    let running = 0;
    let peak = 0;
    const results = await mapPaced([1, 2, 3, 4, 5, 6, 7, 8], { working: 2, maxInFlight: 64, patienceMs: 1000 }, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await sleep(5);
      running--;
      return n * 10;
    });
    expect(results).toEqual([10, 20, 30, 40, 50, 60, 70, 80]);
    expect(peak).toBe(2);
  });

  it('a slow attempt stops counting after the patience, so it does not hold up the batch; maxInFlight still caps', async () => {
    let running = 0;
    let peak = 0;
    const started = Date.now();
    // Ten attempts of 300 ms: with 2 at a time they would take 1.5 s; with a 20 ms patience they overlap up to 4.
    await mapPaced(Array.from({ length: 10 }), { working: 2, maxInFlight: 4, patienceMs: 20 }, async () => {
      running++;
      peak = Math.max(peak, running);
      await sleep(300);
      running--;
    });
    expect(peak).toBe(4);
    expect(Date.now() - started).toBeLessThan(1400);
  });

  it('rejects with the first error and starts nothing more', async () => {
    let calls = 0;
    await expect(
      mapPaced([1, 2, 3, 4], { working: 1, maxInFlight: 1, patienceMs: 1000 }, async (n) => {
        calls++;
        if (n === 2) throw new Error('boom');
        return n;
      }),
    ).rejects.toThrow('boom');
    await sleep(10);
    expect(calls).toBe(2);
  });

  it('an empty batch resolves at once', async () => {
    expect(await mapPaced([], { working: 2, maxInFlight: 2, patienceMs: 10 }, async () => 1)).toEqual([]);
  });
});
