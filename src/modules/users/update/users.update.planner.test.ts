// Table tests of the user-update planner: which items fail with which status and errors, what a
// patch holds (only what changes), when the company e-mail is derived again, and which results a
// round reports. Pure.
import { describe, expect, test } from 'vitest';
import { DOMAIN_MISSING, MANAGER_MISSING, TYPE_MISSING } from '../create/users.create.planner.js';
import type { UserRow } from '../users.repo.js';
import { MAX_DOCUMENTS_PER_USER, TOO_MANY_DOCUMENTS_PER_USER } from './users.documents.service.js';
import { applyEmails, planUpdates, type UpdateContext, type UpdateItem, updateResults } from './users.update.planner.js';

const user = (fields: Partial<UserRow>) =>
  ({
    roles: ['user'],
    suspendedRoles: null,
    firstName: 'Ada',
    lastName: 'Obi',
    personalEmail: 'ada@home.test',
    title: null,
    department: null,
    officeLocation: null,
    startDate: '2026-01-05',
    bankName: null,
    accountNumber: null,
    baseSalary: '250000.00',
    allowances: null,
    domainId: 1,
    userTypeId: 3,
    managerId: null,
    documentPaths: null,
    ...fields,
  }) as UserRow;

const ADA = user({ id: 1, email: 'ada.obi@acme.test' });
const ADMIN = user({ id: 2, email: 'admin@acme.test', personalEmail: 'admin@home.test', roles: ['admin'] });
const WAS_ADMIN = user({ id: 3, email: 'was@acme.test', personalEmail: 'was@home.test', roles: [], suspendedRoles: ['admin'] });
const BOSS = user({ id: 4, email: 'boss@acme.test', personalEmail: 'boss@home.test' });
const LEAVER = user({ id: 5, email: 'leaver@acme.test', personalEmail: 'leaver@home.test', exitDate: '2026-03-20', exitReason: 'other' });

const context: UpdateContext = {
  current: new Map([ADA, ADMIN, WAS_ADMIN, BOSS, LEAVER].map((row) => [row.id, row])),
  vocab: {
    domains: new Map([
      ['acme.test', { id: 1, name: 'acme.test' }],
      ['acme.ng', { id: 2, name: 'acme.ng' }],
    ]),
    types: new Map([
      ['full-time', { id: 3, name: 'Full-time' }],
      ['contract', { id: 4, name: 'Contract' }],
    ]),
    roles: new Set(['user', 'admin']),
  },
  managers: new Map([ADA, BOSS].map((row) => [row.email, row])),
  owners: new Map([ADA, ADMIN, BOSS].map((row) => [row.personalEmail, row])),
};

const plan = (...items: UpdateItem[]) =>
  planUpdates(
    items.map((_, index) => index),
    items,
    context,
  );
const item = (id: number, values: Omit<UpdateItem['values'], 'notify'> = {}, extra: Partial<UpdateItem> = {}): UpdateItem => ({
  id,
  values: { notify: false, ...values },
  ...extra,
});

describe('planUpdates: failures', () => {
  const cases: [string, UpdateItem, number, Record<string, string[]>][] = [
    ['an unknown or deleted user (404)', item(99, { domainName: 'nope.test' }), 404, { id: ['User not found.'] }],
    ['a password for a console user without `all` (403)', item(2, {}, { passwordHash: 'h' }), 403, { password: ['forbidden'] }],
    [
      'a password for a user whose console role waits out a suspension (403)',
      item(3, {}, { passwordHash: 'h' }),
      403,
      {
        password: ['forbidden'],
      },
    ],
    [
      'every reference and pairing error at once (422)',
      item(1, {
        domainName: 'nope.test',
        userType: 'Seasonal',
        managerEmail: 'who@acme.test',
        personalEmail: 'boss@home.test',
        bankName: 'GTB',
      }),
      422,
      {
        domain_name: [DOMAIN_MISSING],
        user_types: [TYPE_MISSING],
        manager_email: [MANAGER_MISSING],
        personal_email: ['The personal email has already been taken.'],
        account_number: ['The account number field is required when bank name is present.'],
      },
    ],
    [
      'being their own manager (422)',
      item(1, { managerEmail: 'ada.obi@acme.test' }),
      422,
      {
        manager_email: ['A user cannot be their own manager.'],
      },
    ],
    [
      'an account number without a bank (422)',
      item(1, { accountNumber: '0123456789' }),
      422,
      {
        bank_name: ['The bank name field is required when account number is present.'],
      },
    ],
    [
      "a start after the user's exit date (422)",
      item(5, { startDate: '2026-03-21' }),
      422,
      { start_date: ["The start date must not be after the user's exit date (2026-03-20)."] },
    ],
    [
      'more documents than the cap (422)',
      item(1, {}, { newDocuments: Array.from({ length: MAX_DOCUMENTS_PER_USER + 1 }, (_, i) => `d${i}`) }),
      422,
      { documents: [TOO_MANY_DOCUMENTS_PER_USER] },
    ],
  ];
  test.each(cases)('fails on %s', (_, input, status, errors) => {
    expect(plan(input)).toEqual({ plans: [], failed: [{ index: 0, result: { ok: false, status, errors } }] });
  });

  test("a start on the leaver's exit date is planned (one day employed)", () => {
    expect(plan(item(5, { startDate: '2026-03-20' })).plans[0]).toMatchObject({ changed: ['start_date'] });
  });

  test('a console password set with `all` is planned', () => {
    const { failed, plans } = plan(item(2, {}, { passwordHash: 'h', mayGrantConsoleAccess: true }));
    expect(failed).toEqual([]);
    expect(plans[0]).toMatchObject({ patch: { id: 2, password_hash: 'h' }, changed: ['password'] });
  });
});

describe('planUpdates: patches', () => {
  test('only what changes; equal money in another spelling is no change', () => {
    const { plans } = plan(
      item(1, {
        title: 'CFO',
        firstName: 'Ada',
        baseSalary: '250000',
        allowances: '10.5',
        userType: 'CONTRACT',
        managerEmail: 'boss@acme.test',
      }),
    );
    expect(plans[0]).toMatchObject({
      patch: { id: 1, title: 'CFO', allowances: '10.5', user_type_id: 4, manager_id: BOSS.id },
      changed: ['title', 'allowances', 'user_types', 'manager_email'],
      rederive: false,
    });
    expect(plans[0].patch).not.toHaveProperty('base_salary');
  });

  test('names or domain re-derive the e-mail from first.last@domain; documents are appended', () => {
    const { plans } = plan(
      item(1, { lastName: 'Okafor' }),
      item(1, { domainName: 'acme.ng' }, { newDocuments: ['new.pdf'] }),
      item(4, { domainName: 'acme.test' }),
    );
    expect(plans.map((p) => [p.rederive, p.local, p.domain])).toEqual([
      [true, 'ada.okafor', 'acme.test'],
      [true, 'ada.obi', 'acme.ng'],
      [false, 'ada.obi', 'acme.test'],
    ]);
    expect(plans[1].patch).toMatchObject({ domain_id: 2, document_paths: ['new.pdf'] });
  });
});

describe('applyEmails and updateResults', () => {
  test('a derived e-mail equal to the own one is no change; only updated users have results', () => {
    const { plans } = plan(item(1, { lastName: 'Okafor' }), item(4, { firstName: 'Big' }), item(2, { title: 'CTO' }));
    applyEmails(plans, ['ada.okafor@acme.test', 'boss@acme.test']);
    expect(plans.map((p) => [p.patch.email, p.changed])).toEqual([
      ['ada.okafor@acme.test', ['last_name', 'email']],
      [undefined, ['first_name']],
      [undefined, ['title']],
    ]);
    const { done, retry } = updateResults(plans, [1, 2]);
    expect(retry).toEqual([1]);
    expect(done.map((d) => d.result)).toEqual([
      {
        ok: true,
        id: 1,
        email: 'ada.okafor@acme.test',
        emailUpdate: 'Email changed to ada.okafor@acme.test.',
        changed: ['last_name', 'email'],
      },
      { ok: true, id: 2, email: 'admin@acme.test', emailUpdate: 'No change.', changed: ['title'] },
    ]);
  });
});
