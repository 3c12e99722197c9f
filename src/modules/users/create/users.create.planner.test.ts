// Table tests of the user-creation planner: which rows fail with which status and message (U3's
// order), which are new users and which re-invite an inactive user, and what gets written. Pure.
import { describe, expect, test } from 'vitest';
import type { CreateValues } from '../fields/users.fields.validation.js';
import type { UserRow } from '../users.repo.js';
import {
  ALREADY_ACTIVE,
  type CreateContext,
  DOMAIN_MISSING,
  DUPLICATE_PERSONAL_EMAIL,
  MANAGER_MISSING,
  planCreateRows,
  planCreates,
  TYPE_MISSING,
} from './users.create.planner.js';

const user = (fields: Partial<UserRow>) => ({ roles: [], isActive: false, ...fields }) as UserRow;

const BOSS = user({ id: 5, email: 'boss@acme.test', isActive: true });
const INVITED = user({ id: 9, email: 'ada.obi@acme.test', personalEmail: 'ada@home.test', firstName: 'Ada', lastName: 'Obi', domainId: 1 });
const ACTIVE = user({ id: 10, email: 'bo@acme.test', personalEmail: 'bo@home.test', isActive: true });

const context = (mayGrantConsoleAccess = false): CreateContext => ({
  vocab: {
    domains: new Map([
      ['acme.test', { id: 1, name: 'acme.test' }],
      ['acme.ng', { id: 2, name: 'acme.ng' }],
    ]),
    types: new Map([['full-time', { id: 3, name: 'Full-time' }]]),
    roles: new Set(['user', 'admin']),
  },
  managers: new Map([[BOSS.email, BOSS]]),
  existing: new Map([
    [INVITED.personalEmail, INVITED],
    [ACTIVE.personalEmail, ACTIVE],
  ]),
  mayGrantConsoleAccess,
});

const input = (fields: Partial<CreateValues> = {}): CreateValues => ({
  firstName: 'Chi',
  lastName: 'Eze',
  personalEmail: 'chi@home.test',
  domainName: 'acme.test',
  userType: 'Full-time',
  title: null,
  department: null,
  officeLocation: null,
  baseSalary: null,
  allowances: null,
  startDate: '2026-01-05',
  managerEmail: null,
  bankName: null,
  accountNumber: null,
  bankCode: null,
  roles: ['user'],
  isActive: false,
  notify: true,
  ...fields,
});

describe('planCreates', () => {
  const failures: [string, Partial<CreateValues>, boolean, number, Record<string, string[]>][] = [
    [
      'unknown roles first (422), each named',
      { roles: ['boss', 'user', 'chief'], domainName: 'nope.test' },
      false,
      422,
      {
        roles: ['The selected role boss is invalid.', 'The selected role chief is invalid.'],
      },
    ],
    ['a console role without `all` (403)', { roles: ['admin'], domainName: 'nope.test' }, false, 403, { roles: ['forbidden'] }],
    ['an unknown domain (400)', { domainName: 'nope.test', userType: 'nope' }, true, 400, { domain_name: [DOMAIN_MISSING] }],
    ['an unknown user type (400)', { userType: 'Seasonal', managerEmail: 'who@acme.test' }, false, 400, { user_types: [TYPE_MISSING] }],
    [
      'an unknown manager (400)',
      { managerEmail: 'who@acme.test', personalEmail: ACTIVE.personalEmail },
      false,
      400,
      {
        manager_email: [MANAGER_MISSING],
      },
    ],
    [
      'an active user with this personal e-mail (400)',
      { personalEmail: ACTIVE.personalEmail },
      false,
      400,
      {
        personal_email: [ALREADY_ACTIVE],
      },
    ],
  ];
  test.each(failures)('fails on %s', (_, fields, mayGrant, status, errors) => {
    const plan = planCreates([{ index: 0, input: input(fields) }], context(mayGrant));
    expect(plan).toEqual({ planned: [], failed: [{ index: 0, result: { ok: false, status, errors } }] });
  });

  test('plans new users and re-invites; a personal e-mail seen before in the batch fails (422)', () => {
    const rows = [
      input({ userType: 'FULL-TIME', managerEmail: BOSS.email, roles: ['admin'] }),
      input({ personalEmail: INVITED.personalEmail, firstName: 'Ada', lastName: 'Obi' }),
      input({ personalEmail: INVITED.personalEmail, firstName: 'Ada', lastName: 'Obi', domainName: 'acme.ng' }),
      input({ personalEmail: 'new@home.test', firstName: 'Ada', lastName: 'Obi', domainName: 'acme.ng' }),
    ].map((row, index) => ({ index, input: row }));
    const { failed, planned } = planCreates(rows, context(true));
    expect(failed).toEqual([{ index: 2, result: { ok: false, status: 422, errors: { personal_email: [DUPLICATE_PERSONAL_EMAIL] } } }]);
    expect(planned.map((p) => [p.index, p.refs.existing?.id, p.needsEmail, p.refs.domainId, p.refs.userTypeId, p.refs.managerId])).toEqual([
      [0, undefined, true, 1, 3, BOSS.id],
      // Same names and domain as the invited user: the company e-mail is kept.
      [1, INVITED.id, false, 1, 3, null],
      [3, undefined, true, 2, 3, null],
    ]);
  });

  test('a re-invite with other names or another domain needs a new e-mail', () => {
    const renamed = planCreates(
      [{ index: 0, input: input({ personalEmail: INVITED.personalEmail, firstName: 'Adaeze', lastName: 'Obi' }) }],
      context(),
    );
    const moved = planCreates(
      [{ index: 0, input: input({ personalEmail: INVITED.personalEmail, firstName: 'Ada', lastName: 'Obi', domainName: 'acme.ng' }) }],
      context(),
    );
    expect([renamed.planned[0].needsEmail, moved.planned[0].needsEmail]).toEqual([true, true]);
  });
});

describe('planCreateRows', () => {
  const generated = {
    emails: new Map([[0, 'chi.eze@acme.test']]),
    employeeIds: ['ACME-0007', 'ACME-0008'],
    uniqueIds: ['u1', 'u2'],
    tokens: ['t1', 't2'],
    reinviteTokens: ['r1'],
    tokenExpiresAt: '2026-01-12T00:00:00.000Z',
  };

  test('new users get the generated ids in planning order; active ones no onboarding token', () => {
    const { planned } = planCreates(
      [
        { index: 0, input: input() },
        { index: 1, input: input({ personalEmail: 'dee@home.test', isActive: true }) },
      ],
      context(),
    );
    const rows = planCreateRows(planned, {
      ...generated,
      emails: new Map([
        [0, 'chi.eze@acme.test'],
        [1, 'chi.eze2@acme.test'],
      ]),
    });
    expect(rows.patches).toEqual([]);
    expect(rows.values.map((v) => [v.employeeId, v.uniqueId, v.email, v.isActive, v.onboardingToken, v.tokenExpiresAt])).toEqual([
      ['ACME-0007', 'u1', 'chi.eze@acme.test', false, 't1', generated.tokenExpiresAt],
      ['ACME-0008', 'u2', 'chi.eze2@acme.test', true, null, null],
    ]);
  });

  test('a re-invite patches the inactive user, keeps its e-mail when none was derived, and resets the token', () => {
    const { planned } = planCreates(
      [{ index: 4, input: input({ personalEmail: INVITED.personalEmail, firstName: 'Ada', lastName: 'Obi', title: 'CFO' }) }],
      context(),
    );
    const rows = planCreateRows(planned, generated);
    expect(rows.values).toEqual([]);
    expect(rows.patches).toEqual([
      expect.objectContaining({
        id: INVITED.id,
        email: INVITED.email,
        title: 'CFO',
        department: undefined,
        manager_id: undefined,
        is_active: false,
        onboarding_completed: false,
        reset_token: true,
        onboarding_token: 'r1',
        token_expires_at: generated.tokenExpiresAt,
      }),
    ]);
  });
});
