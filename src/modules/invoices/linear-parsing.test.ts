// Parsers that see user input must run in linear time: a regex that backtracks from every position
// turns one request into seconds (or hours) of a blocked event loop for every client.
import { describe, expect, it } from 'vitest';
import { toKobo } from '../../tax-engine/money.js';
import { parseMoney } from './invoices.money.validation.js';

/** Wall time of `run` in ms. */
const timed = (run: () => unknown) => {
  const started = performance.now();
  run();
  return performance.now() - started;
};

describe('money amounts with a long run of zeros', () => {
  // `/0+$/` took 29 s on 200,000 zeros (quadratic): this size is well inside a 1 MiB JSON body.
  const zeros = '0'.repeat(200_000);

  it('paystub and contribution amounts (toKobo) answer at once, with the same results', () => {
    expect(timed(() => expect(toKobo(`1.${zeros}1`)).toBeNull())).toBeLessThan(200);
    expect(timed(() => expect(toKobo(`1.5${zeros}`)).toBe(150n))).toBeLessThan(200);
    expect(toKobo('12.340')).toBe(1234n);
    expect(toKobo('12.345')).toBeNull();
  });

  it('invoice amounts (parseMoney) answer at once, with the same results', () => {
    expect(
      timed(() =>
        expect(parseMoney(`1.${zeros}1`, 'total amount')).toEqual({ error: 'The total amount field must have at most 2 decimal places.' }),
      ),
    ).toBeLessThan(200);
    expect(timed(() => expect(parseMoney(`1.25${zeros}`, 'total amount')).toEqual({ kobo: 125n }))).toBeLessThan(200);
    expect(parseMoney('0.10', 'x')).toEqual({ kobo: 10n });
  });
});
