// Reference lists (states, PFAs): shared by every company, so naming B changes nothing: the answer
// is the same public list, with nothing of B in it.
import { expect } from 'vitest';
import type { Json, MatrixContext } from '../probes.js';

export function referenceDataProbes(context: MatrixContext): void {
  const { add, scopes } = context;
  const lists = [
    ['states.index', '/api/states', 37],
    ['pfas.index', '/api/pfas', undefined],
  ] as const;
  for (const [route, path, size] of lists) {
    const sameList = (body: Json) => {
      expect(Array.isArray(body.data)).toBe(true);
      if (size !== undefined) expect(body.data.length).toBe(size);
    };
    add({ route, what: 'the shared list', method: 'GET', url: path, allow: [200], check: sameList });
    for (const [label, id] of scopes) {
      add({
        route,
        what: `${label} is ignored: the shared list`,
        method: 'GET',
        url: `${path}?company_id=${id}`,
        allow: [200],
        check: sameList,
      });
    }
  }
}
