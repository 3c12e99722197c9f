// Table tests of the bank fields' pure rules (users.bank-fields.validation.ts): what U3 and U4 decide about
// bank_code, the NUBAN check and the verification. Through HTTP: users.bank.test.ts.
import { describe, expect, test } from 'vitest';
import type { FieldErrors } from '../../../platform/errors.js';
import { nubanFor } from '../../banks/index.js';
import type { UserRow } from '../users.repo.js';
import { INVALID_NUBAN, planBankUpdate, settleNewBankAccount, TEN_DIGITS } from './users.bank-fields.validation.js';

const GTB = nubanFor('058', '012345678');
const ZENITH = nubanFor('057', '012345678');
const stored = { bankName: 'GTBank', bankCode: '058', accountNumber: GTB } as UserRow;

describe('settleNewBankAccount (U3, U8 rows)', () => {
  test.each([
    [
      'a short name derives the code',
      { bankName: 'GTB', bankCode: undefined, accountNumber: GTB },
      { bankName: 'GTB', bankCode: '058' },
      {},
    ],
    ['a code names the bank', { bankName: null, bankCode: '057', accountNumber: ZENITH }, { bankName: 'Zenith Bank', bankCode: '057' }, {}],
    [
      'a code wins over the name',
      { bankName: 'GTBank', bankCode: '057', accountNumber: ZENITH },
      { bankName: 'GTBank', bankCode: '057' },
      {},
    ],
    [
      'a wrong check digit',
      { bankName: 'Zenith', bankCode: undefined, accountNumber: GTB.replace(/.$/, (d) => String((Number(d) + 1) % 10)) },
      { bankName: 'Zenith', bankCode: '057' },
      { account_number: [INVALID_NUBAN] },
    ],
    [
      'an unknown bank, ten digits',
      { bankName: 'Ajo', bankCode: undefined, accountNumber: '1234567890' },
      { bankName: 'Ajo', bankCode: null },
      {},
    ],
    [
      'an unknown bank, nine digits',
      { bankName: 'Ajo', bankCode: undefined, accountNumber: '123456789' },
      { bankName: 'Ajo', bankCode: null },
      { account_number: [TEN_DIGITS] },
    ],
    ['no bank details at all', { bankName: null, bankCode: undefined, accountNumber: null }, { bankName: null, bankCode: null }, {}],
  ])('%s', (_, input, settled, errors) => {
    const found: FieldErrors = {};
    expect(settleNewBankAccount(found, input)).toEqual(settled);
    expect(found).toEqual(errors);
  });
});

describe('planBankUpdate (U4, U9 rows)', () => {
  test.each([
    ['nothing bank-related: no change, no check', {}, stored, undefined, {}],
    [
      'another spelling of the same bank: nothing to clear',
      { bankName: 'Guaranty Trust Bank' },
      stored,
      { bank_name: 'Guaranty Trust Bank', bank_code: '058', bank_identity_changed: false },
      {},
    ],
    [
      'a new number at the stored bank',
      { accountNumber: nubanFor('058', '999999999') },
      stored,
      { bank_code: '058', bank_identity_changed: true },
      {},
    ],
    [
      'a new bank the stored number does not fit',
      { bankName: 'Zenith' },
      stored,
      { bank_name: 'Zenith', bank_code: '057', bank_identity_changed: true },
      ZENITH === GTB ? {} : { account_number: [INVALID_NUBAN] },
    ],
    [
      'a code alone names the bank',
      { bankCode: '057', accountNumber: ZENITH },
      stored,
      { bank_name: 'Zenith Bank', bank_code: '057', bank_identity_changed: true },
      {},
    ],
    [
      'an unknown bank name clears the code',
      { bankName: 'Ajo', accountNumber: '1234567890' },
      stored,
      { bank_name: 'Ajo', bank_code: null, bank_identity_changed: true },
      {},
    ],
  ])('%s', (_, values, user, plan, errors) => {
    const found: FieldErrors = {};
    expect(planBankUpdate(found, values, user)).toEqual(plan);
    expect(found).toEqual(errors);
  });
});
