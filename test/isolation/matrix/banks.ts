// Banks: the bank list names no company; verifying a bank account names B's user.
import { expect } from 'vitest';
import type { MatrixContext } from '../probes.js';

export function banksProbes(context: MatrixContext): void {
  const { v, add, userScopes } = context;
  add({
    route: 'banks.index',
    what: 'the bank list, with company_id=B in the query (ignored: the list is the same for everyone)',
    method: 'GET',
    url: `/api/banks?company_id=${v.company}`,
    allow: [200],
    check: (body) => {
      expect(body.data.length).toBeGreaterThan(20);
      for (const bank of body.data) expect(Object.keys(bank)).toEqual(['name', 'code', 'slug']);
    },
  });
  for (const [label, q] of userScopes) {
    add({
      route: 'users.verify-bank-account',
      what: `B's user, ${label}`,
      method: 'POST',
      url: `/api/users/${v.userId}/bank-account/verify${q}`,
    });
  }
  add({
    route: 'users.verify-bank-account',
    what: "B's user, company_id=B in the JSON body",
    method: 'POST',
    url: `/api/users/${v.userId}/bank-account/verify`,
    payload: { company_id: v.company },
  });
}
