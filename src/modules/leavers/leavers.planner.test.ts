// Table tests of the leavers' decisions (leavers.planner.ts): what a terminate records or refuses,
// and when an exit may be undone.
import { describe, expect, it } from 'vitest';
import { LEAVER_MESSAGES, type LeaverUser, planReinstate, planTerminate } from './leavers.planner.js';

const user = (extra: Partial<LeaverUser> = {}): LeaverUser => ({
  startDate: '2024-01-15',
  exitDate: null,
  exitReason: null,
  isActive: true,
  roles: ['user'],
  ...extra,
});
const TODAY = '2026-03-10';

describe('planTerminate', () => {
  it.each([
    ['an exit in the future', '2026-03-31', false],
    ['an exit today: still employed today', '2026-03-10', false],
    ['an exit yesterday: exited now', '2026-03-09', true],
    ['an exit on the start date', '2024-01-15', true],
  ])('%s', (_label, exitDate, exitedNow) => {
    expect(planTerminate({ exit_date: exitDate, reason: 'resignation', company_id: 7 }, user(), TODAY, true)).toEqual({
      ok: true,
      value: { exitDate, reason: 'resignation', exitedNow },
    });
  });

  it.each<[string, Record<string, unknown>, Partial<LeaverUser>, boolean, Record<string, string[]>]>([
    ['nothing given', {}, {}, true, { exit_date: ['The exit date field is required.'], reason: ['The reason field is required.'] }],
    [
      'blank strings',
      { exit_date: ' ', reason: '' },
      {},
      true,
      { exit_date: ['The exit date field is required.'], reason: ['The reason field is required.'] },
    ],
    ['a number as the date', { exit_date: 20260331, reason: 'other' }, {}, true, { exit_date: ['The exit date field must be a string.'] }],
    ['an unknown reason', { exit_date: '2026-03-31', reason: 'fired' }, {}, true, { reason: [LEAVER_MESSAGES.reason] }],
    [
      'before the start date',
      { exit_date: '2024-01-14', reason: 'other' },
      {},
      true,
      { exit_date: [LEAVER_MESSAGES.beforeStart('2024-01-15')] },
    ],
    [
      'already terminated (whatever the new date)',
      { exit_date: '2020-01-01', reason: 'other' },
      { exitDate: '2026-02-28', exitReason: 'resignation' },
      true,
      { exit_date: [LEAVER_MESSAGES.terminated('2026-02-28')] },
    ],
    [
      'final_pay that is not an object with items, and an unknown field',
      { exit_date: '2026-03-31', reason: 'other', final_pay: [{ type: 'bonus', amount: 10 }], notice_days: 30 },
      {},
      true,
      { final_pay: [LEAVER_MESSAGES.finalPay], notice_days: ['The notice days field is not allowed.'] },
    ],
    [
      "the company's last active super-admin",
      { exit_date: '2026-03-31', reason: 'retirement' },
      { roles: ['super-admin'] },
      false,
      { user: [LEAVER_MESSAGES.lastSuperAdmin] },
    ],
  ])('refuses %s', (_label, body, extra, superAdminStays, errors) => {
    expect(planTerminate(body, user(extra), TODAY, superAdminStays)).toEqual({ ok: false, errors });
  });

  it.each<[string, Partial<LeaverUser>, boolean]>([
    ['another super-admin stays', { roles: ['super-admin'] }, true],
    ['an inactive super-admin (not the one keeping the console open)', { roles: ['super-admin'], isActive: false }, false],
    ['a user without a start date', { startDate: null }, true],
  ])('accepts when %s', (_label, extra, superAdminStays) => {
    expect(planTerminate({ exit_date: '2026-03-31', reason: 'other' }, user(extra), TODAY, superAdminStays).ok).toBe(true);
  });
});

describe('planReinstate', () => {
  const left = user({ exitDate: '2026-03-20', exitReason: 'redundancy' });
  const covering = (status: string) => ({ status, payPeriodStart: '2026-03-01', payPeriodEnd: '2026-03-31' });

  it.each([
    ['no paystub covers the exit date yet', undefined],
    ['the covering paystub is unpaid (a draft or approved run)', covering('unpaid')],
  ])('undoes the exit when %s', (_label, paystub) => {
    expect(planReinstate(left, paystub)).toEqual({ ok: true, value: { exitDate: '2026-03-20' } });
  });

  it.each([
    ['a user who was never terminated', user(), undefined, LEAVER_MESSAGES.notTerminated],
    ['a paid covering paystub', left, covering('paid'), LEAVER_MESSAGES.paid('2026-03-01', '2026-03-31')],
    ['a covering paystub being paid', left, covering('processing'), LEAVER_MESSAGES.paying('2026-03-01', '2026-03-31')],
  ])('refuses %s', (_label, who, paystub, message) => {
    expect(planReinstate(who, paystub)).toEqual({ ok: false, errors: { exit_date: [message] } });
  });
});
