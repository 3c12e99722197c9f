// The isolation matrix: for every named /api route, the requests company A can make that name
// company B's resources (ids in the path, company_id in query/body/form, B's user ids and e-mails
// inside bodies and CSV files, B's Idempotency-Keys). Built from a Victim so that the same list
// can be sent for the ghost. The cases live by feature in ./matrix/.
import { expect } from 'vitest';
import { generatedUsers, multipart } from '../helpers/users.js';
import { auditProbes } from './matrix/audit.js';
import { banksProbes } from './matrix/banks.js';
import { companiesInvoicesWalletProbes } from './matrix/companies-invoices-wallet.js';
import { loansProbes } from './matrix/loans.js';
import { payItemsProbes } from './matrix/pay-items.js';
import { paySchedulesProbes } from './matrix/pay-schedules.js';
import { payrollProbes } from './matrix/payroll.js';
import { payrollRunsProbes } from './matrix/payroll-runs.js';
import { payslipsProbes } from './matrix/payslips.js';
import { referenceDataProbes } from './matrix/reference-data.js';
import { remittancesProbes } from './matrix/remittances.js';
import { usersProbes } from './matrix/users.js';
import { variantProbes } from './matrix/variants.js';
import { webhooksProbes } from './matrix/webhooks.js';
import type { Attacker, Victim } from './world.js';

/** A parsed response body; the checks assert its shape themselves. */
// biome-ignore lint/suspicious/noExplicitAny: bodies are asserted structurally by each check
export type Json = any;

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Probe {
  /** The route name this request must reach (checked against the registered catalog). */
  route: string;
  what: string;
  method: Method;
  url: string;
  payload?: object | string | Buffer;
  headers?: Record<string, string>;
  /** Allowed statuses; default 403/404. Anything else (2xx, 500) fails. */
  allow?: number[];
  /** Extra assertions on the parsed body (e.g. "every item failed", "nothing of B listed"). */
  check?: (body: Json) => void;
  /** Body keys that differ on every call (P2's run id): dropped before comparing with the ghost. */
  volatile?: string[];
  /** False where the ghost request would legitimately differ (global uniqueness, docs/companies-invoices.md, "The companies and invoices rules"). */
  compare?: boolean;
  /** Tables A's own request may legitimately write (its own Idempotency-Key row); B's rows there must not change. */
  mayWrite?: string[];
}

/** What every feature's cases are built from. */
export interface MatrixContext {
  a: Attacker;
  v: Victim;
  /** A and its child. */
  aTree: number[];
  A: number;
  AC: number;
  add(probe: Probe): void;
  /** company_id values naming B and B's child. */
  scopes: readonly (readonly [string, number])[];
  /** Ways to address one of B's resources: A's own scope, A's child's scope, company_id=B. */
  userScopes: readonly (readonly [string, string])[];
  /** A valid import row on A's domain (the case changes one cell to B's). */
  row: ReturnType<typeof generatedUsers>[number];
  /** A valid S8 body. */
  plan: Record<string, unknown>;
  /** A valid I3 body without user_email. */
  claim: Record<string, unknown>;
  replays: Record<string, { url: string; body: object }>;
}

export const ALL_ITEMS_FAILED = (body: Json) => {
  expect(body.created_paystubs).toEqual([]);
  expect(body.failed_paystubs.length).toBeGreaterThan(0);
};
export const EVERY_ROW_FAILED = (field: string) => (body: Json) => {
  expect(body.status).toBe('failed');
  expect(body.successes).toEqual([]);
  expect(body.failures.length).toBeGreaterThan(0);
  for (const failure of body.failures) expect(Object.keys(failure.errors)).toContain(field);
};

export function csvUpload(csv: string, fields: Record<string, string> = {}) {
  const { payload, headers } = multipart(fields, [{ field: 'users_csv', filename: 'users.csv', contentType: 'text/csv', data: csv }]);
  return { payload, headers };
}

/** Every probe of the matrix for one victim (B, or the ghost). */
export function buildProbes(a: Attacker, v: Victim, aTree: number[], replays: MatrixContext['replays']): Probe[] {
  const probes: Probe[] = [];
  const A = a.company.id;
  const AC = a.child;
  const context: MatrixContext = {
    a,
    v,
    aTree,
    A,
    AC,
    add: (probe) => probes.push(probe),
    scopes: [
      ['company_id=B', v.company],
      ["company_id=B's child", v.child],
    ],
    userScopes: [
      ['own scope', ''],
      ["A's child scope", `?company_id=${AC}`],
      ['company_id=B', `?company_id=${v.company}`],
    ],
    row: generatedUsers(1, a.domain)[0],
    plan: {
      name: 'Intruder plan',
      type: 'amount',
      apply_to: 'gross_pay',
      responsibility: 'employee',
      employee_value: 1,
      frequency: 'per_paystub',
    },
    claim: {
      description: 'x',
      service_date: '2026-01-01',
      provider_name: 'x',
      total_amount: '10',
      amount_requested: '10',
      category_name: 'Health',
    },
    replays,
  };
  usersProbes(context);
  payItemsProbes(context);
  loansProbes(context);
  payrollProbes(context);
  payrollRunsProbes(context);
  payslipsProbes(context);
  banksProbes(context);
  companiesInvoicesWalletProbes(context);
  variantProbes(context);
  referenceDataProbes(context);
  webhooksProbes(context);
  remittancesProbes(context);
  paySchedulesProbes(context);
  auditProbes(context);
  return probes;
}
