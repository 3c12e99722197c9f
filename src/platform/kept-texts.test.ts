// The kept texts' bounds: the least recently read go first, by count and by characters; a value over
// the whole budget is not kept, and keeping a key again replaces its value and its size; a page's values
// only when every place is kept at its version, and otherwise drawn from a read of the page and kept.
import { describe, expect, it } from 'vitest';
import { createKeptTexts, keptAtVersions, keptOrDrawn } from './kept-texts.js';

describe('kept texts', () => {
  it('keeps the most recently read within its count and size', () => {
    const kept = createKeptTexts<number, string>({ entries: 3, chars: 10 }, (text) => text.length);
    for (const id of [1, 2, 3]) kept.keep(id, 'ab');
    expect(kept.get(1)).toBe('ab');
    kept.keep(4, 'cd');
    expect([1, 2, 3, 4].map((id) => kept.get(id) ?? null)).toEqual(['ab', null, 'ab', 'cd']);
    kept.keep(5, 'efghijk');
    expect(kept.size).toBe(2);
    expect([3, 4, 5].map((id) => kept.get(id) ?? null)).toEqual([null, 'cd', 'efghijk']);
    kept.keep(6, 'x'.repeat(11));
    expect(kept.get(6)).toBeUndefined();
    expect(kept.size).toBe(2);
  });

  it('replaces the value kept under a key, with its size', () => {
    const kept = createKeptTexts<string, { text: string }>({ entries: 10, chars: 10 }, (value) => value.text.length);
    kept.keep('a', { text: 'x'.repeat(8) });
    kept.keep('a', { text: 'yy' });
    kept.keep('b', { text: 'z'.repeat(8) });
    expect([kept.get('a')?.text, kept.get('b')?.text]).toEqual(['yy', 'zzzzzzzz']);
    kept.keep('a', { text: 'w'.repeat(10) });
    expect([kept.get('a')?.text, kept.get('b')]).toEqual(['wwwwwwwwww', undefined]);
  });

  it("gives a page's kept values only when every place is kept at its version", () => {
    const kept = createKeptTexts<number, { version: string; text: string }>({ entries: 10, chars: 100 }, (value) => value.text.length);
    kept.keep(1, { version: '7', text: 'a' });
    kept.keep(2, { version: '8', text: 'b' });
    const places = (v1: string, v2: string) => [
      { id: 1, version: v1 },
      { id: 2, version: v2 },
    ];
    expect(keptAtVersions(kept, places('7', '8'))?.map((value) => value.text)).toEqual(['a', 'b']);
    expect(keptAtVersions(kept, places('7', '9'))).toBeUndefined();
    expect(keptAtVersions(kept, [...places('7', '8'), { id: 3, version: '1' }])).toBeUndefined();
    expect(keptAtVersions(kept, [])).toEqual([]);
  });

  it("draws a page not wholly kept from its read, keeping each item under its place's version, and then answers from what it kept", async () => {
    const kept = createKeptTexts<number, { version: string; value: string }>({ entries: 10, chars: 100 }, (entry) => entry.value.length);
    let reads = 0;
    const items = [
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
      { id: 3, name: 'c' },
    ];
    const page = (places: { id: number; version: string }[]) =>
      keptOrDrawn(
        kept,
        places,
        async () => {
          reads++;
          return items;
        },
        (item) => item.id,
        (item) => item.name.toUpperCase(),
      );
    // Item 3 has no place (it came between the two reads): drawn, not kept.
    expect(
      await page([
        { id: 1, version: 'v1' },
        { id: 2, version: 'v1' },
      ]),
    ).toEqual(['A', 'B', 'C']);
    expect([kept.get(1), kept.get(2), kept.get(3)]).toEqual([{ version: 'v1', value: 'A' }, { version: 'v1', value: 'B' }, undefined]);
    expect(
      await page([
        { id: 2, version: 'v1' },
        { id: 1, version: 'v1' },
      ]),
    ).toEqual(['B', 'A']);
    expect(reads).toBe(1);
    items[0].name = 'z';
    expect(
      await page([
        { id: 1, version: 'v2' },
        { id: 2, version: 'v1' },
      ]),
    ).toEqual(['Z', 'B', 'C']);
    expect(reads).toBe(2);
  });
});
