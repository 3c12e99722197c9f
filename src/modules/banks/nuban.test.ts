// The NUBAN check digit as properties (fast-check): every generated valid NUBAN passes, every
// single-digit change of it fails, for 3-digit CBN codes and 6-digit microfinance codes alike.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BANKS } from './banks.lookup.rules.js';
import { isValidNuban, nubanCheckDigit, nubanFor } from './nuban.rules.js';

const digits = (length: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length, maxLength: length }).map((d) => d.join(''));
const anyCode = fc.oneof(digits(3), digits(6));
const listedCode = fc.constantFrom(...BANKS.map((bank) => bank.code));
const RUNS = { numRuns: 2000, seed: 15 };

describe('NUBAN check digit', () => {
  it('every generated NUBAN is valid at its bank', () => {
    fc.assert(
      fc.property(fc.oneof(anyCode, listedCode), digits(9), (code, serial) => isValidNuban(code, nubanFor(code, serial))),
      RUNS,
    );
  });

  it('every single-digit change of a valid NUBAN makes it invalid', () => {
    fc.assert(
      fc.property(
        fc.oneof(anyCode, listedCode),
        digits(9),
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        (code, serial, position, delta) => {
          const valid = nubanFor(code, serial);
          const changed = `${valid.slice(0, position)}${(Number(valid[position]) + delta) % 10}${valid.slice(position + 1)}`;
          return changed !== valid && !isValidNuban(code, changed);
        },
      ),
      RUNS,
    );
  });

  it('a 3-digit code gives the same digit as the 2010 12-digit rule, and as its 6-digit form padded with 000', () => {
    const weights = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3];
    fc.assert(
      fc.property(digits(3), digits(9), (code, serial) => {
        const sum = [...`${code}${serial}`].reduce((total, d, i) => total + weights[i] * Number(d), 0);
        const expected = (10 - (sum % 10)) % 10;
        return nubanCheckDigit(code, serial) === expected && nubanCheckDigit(`000${code}`, serial) === expected;
      }),
      RUNS,
    );
  });

  it('matches published examples and refuses what is not a NUBAN', () => {
    // CBN's worked example: First Bank (011), serial 000001457 → check digit 9.
    expect(nubanCheckDigit('011', '000001457')).toBe(9);
    expect(isValidNuban('011', '0000014579')).toBe(true);
    expect(isValidNuban('011', '0000014578')).toBe(false);
    for (const account of ['', '000001457', '00000145790', '00000145a9', ' 0000014579']) expect(isValidNuban('011', account)).toBe(false);
    for (const code of ['', '11', '0111', '01111', '0111111', 'abc']) expect(isValidNuban(code, '0000014579')).toBe(false);
    expect(() => nubanCheckDigit('11', '000001457')).toThrow();
  });
});
