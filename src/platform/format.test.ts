// isoTimestamp rewrites PostgreSQL's UTC text without a Date (the hot reads): it must give exactly
// what the Date path gives for every such text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTimestamp } from './format.js';

const viaDate = (text: string) => `${new Date(text).toISOString().slice(0, 23)}000Z`;

describe('isoTimestamp', () => {
  it("rewrites PostgreSQL's UTC text exactly as parsing it would", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 999_999 }),
        fc.integer({ min: 0, max: 6 }),
        (date, micros, digits) => {
          const fraction = digits === 0 ? '' : `.${String(micros).padStart(6, '0').slice(0, digits)}`;
          const text = `${date.toISOString().slice(0, 10)} ${date.toISOString().slice(11, 19)}${fraction}+00`;
          expect(isoTimestamp(text)).toBe(viaDate(text));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('leaves other offsets and forms to Date', () => {
    for (const text of ['2026-11-25 12:10:38.5+01', '2026-11-25 06:40:38.123456-04:30', '2026-11-25T11:10:38.123Z']) {
      expect(isoTimestamp(text)).toBe(viaDate(text));
    }
    expect(isoTimestamp(new Date('2026-11-25T11:10:38.123Z'))).toBe('2026-11-25T11:10:38.123000Z');
    expect(isoTimestamp(null)).toBeNull();
  });
});
