// Texts an instance keeps in memory between requests (answers' JSON parts it would otherwise read and
// write again): the least recently read go first, within a count and a number of characters. What
// may be kept and when a kept value is still right is each user's rule: the audit log keeps sealed
// events, which never change; the runs list, the loans list and I1 keep a row's text with the row's
// version (db/row-version.ts) it was written from, and use a page's texts only when every row is kept at the
// version the page read (`keptAtVersions`); P1 keeps a paystub's text and its user's, each under its
// own version (paystubs.list-text.service.ts), and the console's Employees and Payroll tables each
// row's HTML through `keptOrDrawn` (web/employee-rows.service.ts, web/run-rows.service.ts). docs/decisions.md, "Kept texts are one store".

export interface KeptTextLimits {
  /** Values kept at most. */
  entries: number;
  /** Characters kept at most, over every value (`charsOf`). */
  chars: number;
}

export interface KeptTexts<K, V> {
  /** The value kept under `key`, if any (and marks it recently read). */
  get(key: K): V | undefined;
  /** Keeps `value` under `key`, in place of what was kept there. */
  keep(key: K, value: V): void;
  readonly size: number;
}

export function createKeptTexts<K, V>(limits: KeptTextLimits, charsOf: (value: V) => number): KeptTexts<K, V> {
  // A Map iterates in insertion order: re-inserting on each read keeps the least recent first.
  const kept = new Map<K, V>();
  let chars = 0;
  const drop = (key: K, value: V) => {
    kept.delete(key);
    chars -= charsOf(value);
  };
  return {
    get(key) {
      const value = kept.get(key);
      if (value !== undefined) {
        kept.delete(key);
        kept.set(key, value);
      }
      return value;
    },
    keep(key, value) {
      const before = kept.get(key);
      if (before !== undefined) drop(key, before);
      const size = charsOf(value);
      if (size > limits.chars) return;
      kept.set(key, value);
      chars += size;
      for (const [oldest, old] of kept) {
        if (kept.size <= limits.entries && chars <= limits.chars) break;
        drop(oldest, old);
      }
    },
    get size() {
      return kept.size;
    },
  };
}

/**
 * What a page keeps of each of its places, when every place is kept at the version the page read
 * (db/row-version.ts); undefined as soon as one is not, and the page is then read again whole.
 */
export function keptAtVersions<K, V extends { version: string }>(
  kept: KeptTexts<K, V>,
  places: readonly { id: K; version: string }[],
): V[] | undefined {
  const found: V[] = [];
  for (const place of places) {
    const value = kept.get(place.id);
    if (value === undefined || value.version !== place.version) return undefined;
    found.push(value);
  }
  return found;
}

/**
 * A page's values: the ones kept at its places' versions when every place has one (keptAtVersions);
 * otherwise `read`'s items, each drawn and kept under the version its place was read at. An item
 * changed between the two reads is drawn as changed, under a version the next read of its place
 * will not match (it is then read anew).
 */
export async function keptOrDrawn<K, I, V>(
  kept: KeptTexts<K, { version: string; value: V }>,
  places: readonly { id: K; version: string }[],
  read: () => Promise<readonly I[]>,
  idOf: (item: I) => K,
  draw: (item: I) => V,
): Promise<V[]> {
  const found = keptAtVersions(kept, places);
  if (found) return found.map((entry) => entry.value);
  const versions = new Map(places.map((place) => [place.id, place.version]));
  return (await read()).map((item) => {
    const value = draw(item);
    const version = versions.get(idOf(item));
    if (version !== undefined) kept.keep(idOf(item), { version, value });
    return value;
  });
}
