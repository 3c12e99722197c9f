// The bank list's integrity and name matching (pure).
import { describe, expect, it } from 'vitest';
import { BANK_ENTRIES } from './banks.data.js';
import { BANKS, bankByCode, bankCodeForName, nameKey, paystackBankCode } from './banks.lookup.rules.js';

describe('bank list', () => {
  it('has unique codes, slugs and Paystack codes; codes of 3 or 6 digits', () => {
    const codes = BANK_ENTRIES.flatMap((entry) => [entry.code, ...(entry.paystack ? [entry.paystack] : [])]);
    expect(new Set(codes).size).toBe(codes.length);
    expect(new Set(BANKS.map((bank) => bank.slug)).size).toBe(BANKS.length);
    for (const bank of BANKS) {
      expect(bank.code).toMatch(/^(\d{3}|\d{6})$/);
      expect(bank.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
    for (const kind of ['commercial', 'merchant', 'non-interest', 'microfinance']) {
      expect(BANK_ENTRIES.some((entry) => entry.kind === kind)).toBe(true);
    }
  });

  it('every bank is found by its own name, and no two banks share a name key except the documented "access"', () => {
    for (const bank of BANKS) expect(bankCodeForName(bank.name), bank.name).toBe(bank.code);
    const owners = new Map<string, Set<string>>();
    for (const entry of BANK_ENTRIES) {
      for (const text of [entry.name, ...(entry.aliases ?? [])]) {
        owners.set(nameKey(text), (owners.get(nameKey(text)) ?? new Set()).add(entry.code));
      }
    }
    expect([...owners].filter(([, codes]) => codes.size > 1).map(([key]) => key)).toEqual(['access']);
  });

  it.each([
    ['GTBank', '058'],
    ['gtb', '058'],
    ['Guaranty Trust Bank Plc.', '058'],
    ['First Bank', '011'],
    ['FIRSTBANK', '011'],
    ['First Bank of Nigeria Ltd', '011'],
    ['UBA', '033'],
    ['United Bank for Africa PLC', '033'],
    ['Zenith', '057'],
    ['ZENITH BANK', '057'],
    ['Access Bank', '044'],
    ['access bank plc', '044'],
    ['Diamond Bank', '063'],
    ['Stanbic', '221'],
    ['FCMB', '214'],
    ['Kuda', '950211'],
    ['Kuda MFB', '950211'],
    ['Moniepoint Microfinance Bank Ltd', '950515'],
  ])('"%s" names %s', (name, code) => {
    expect(bankCodeForName(name)).toBe(code);
  });

  it.each([['Access'], ['Test Bank'], ['Bank'], [''], ['Microfinance Bank'], ['First City'], ['Union Bank of Africa']])(
    '"%s" names no single bank',
    (name) => {
      expect(bankCodeForName(name)).toBeUndefined();
    },
  );

  it('finds banks by our code or by the code Paystack uses, and gives Paystack its own code back', () => {
    expect(bankByCode('058')).toEqual({ name: 'Guaranty Trust Bank', code: '058', slug: 'guaranty-trust-bank' });
    expect(bankByCode('50211')?.code).toBe('950211');
    expect(bankByCode('999')).toBeUndefined();
    expect(paystackBankCode('950211')).toBe('50211');
    expect(paystackBankCode('058')).toBe('058');
  });
});
