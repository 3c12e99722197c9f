// Pay item types: company_id=B and B's child on list and create (query, JSON body, GET JSON body);
// the plain list shows none of B's types, and A may take B's codes as its own only by creating
// them (no probe writes).
import { expect } from 'vitest';
import type { Json, MatrixContext } from '../probes.js';

export function payItemsProbes(context: MatrixContext): void {
  const { v, add, scopes } = context;
  const body = { code: 'intruder_type', name: 'Intruder', treatment: 'earning' };
  for (const [label, id] of scopes) {
    add({ route: 'pay-item-types.read', what: label, method: 'GET', url: `/api/pay-item-types?company_id=${id}` });
    add({
      route: 'pay-item-types.read',
      what: `${label} in a GET JSON body`,
      method: 'GET',
      url: '/api/pay-item-types',
      payload: { company_id: id },
    });
    add({ route: 'pay-item-types.create', what: label, method: 'POST', url: '/api/pay-item-types', payload: { ...body, company_id: id } });
    add({
      route: 'pay-item-types.create',
      what: `${label} in the query`,
      method: 'POST',
      url: `/api/pay-item-types?company_id=${id}`,
      payload: body,
    });
  }
  add({
    route: 'pay-item-types.read',
    what: "plain list lists none of B's types",
    method: 'GET',
    url: '/api/pay-item-types',
    allow: [200],
    check: (answer: Json) => {
      const codes = answer.data.map((type: { code: string }) => type.code);
      expect(codes).not.toContain(v.payItemTypeCode);
    },
  });
}
