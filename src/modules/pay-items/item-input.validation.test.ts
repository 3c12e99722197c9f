// parseItemsInput and unknownTypeErrors (docs/payroll.md, "Pay items"): a request's `items` read
// field by field, every failure named by its path, amounts exact in kobo.
import { describe, expect, it } from 'vitest';
import { BUILT_IN_PAY_ITEM_TYPES, type PayItemType } from '../../tax-engine/pay-items.js';
import { ITEM_MESSAGES, MAX_PAY_ITEMS, parseItemAmount, parseItemsInput, unknownTypeErrors } from './item-input.validation.js';

describe('parseItemsInput', () => {
  it('reads items: code trimmed, amounts in kobo, a blank description as none, origin_period for arrears', () => {
    expect(
      parseItemsInput([
        { type: ' bonus ', amount: '150000.50', description: '  Q2 bonus ' },
        { type: 'arrears', amount: 2500, origin_period: '2026-01' },
        { type: 'overtime', amount: '0.01', description: '   ' },
        { type: 'hazard_allowance', amount: 12.3, origin_period: null },
      ]),
    ).toEqual({
      items: [
        { code: 'bonus', amount: 15_000_050n, description: 'Q2 bonus', originPeriod: null },
        { code: 'arrears', amount: 250_000n, description: null, originPeriod: '2026-01' },
        { code: 'overtime', amount: 1n, description: null, originPeriod: null },
        { code: 'hazard_allowance', amount: 1_230n, description: null, originPeriod: null },
      ],
    });
  });

  it('absent items are none; not an array, or more than 50, is refused on the field itself', () => {
    expect(parseItemsInput(undefined)).toEqual({ items: [] });
    expect(parseItemsInput(null)).toEqual({ items: [] });
    expect(parseItemsInput([])).toEqual({ items: [] });
    expect(parseItemsInput({ type: 'bonus', amount: 1 })).toEqual({ errors: { items: ['The items field must be an array.'] } });
    expect(parseItemsInput('bonus')).toEqual({ errors: { items: ['The items field must be an array.'] } });
    const many = Array.from({ length: MAX_PAY_ITEMS + 1 }, () => ({ type: 'bonus', amount: 1 }));
    expect(parseItemsInput(many)).toEqual({ errors: { items: ['The items field must not have more than 50 items.'] } });
    expect('items' in parseItemsInput(many.slice(1))).toBe(true);
  });

  it('names every failure by its path, all at once, under the field it is given', () => {
    const result = parseItemsInput(
      [
        'bonus',
        { amount: 10 },
        { type: 7, amount: 10 },
        { type: 'bonus' },
        { type: 'bonus', amount: '10', description: 'd'.repeat(201) },
        { type: 'bonus', amount: '10', description: 42 },
        { type: 'arrears', amount: '10' },
        { type: 'arrears', amount: '10', origin_period: '2026-13' },
        { type: 'bonus', amount: '10', origin_period: '2026-01' },
        { type: '', amount: '-1' },
      ],
      'users.3.items',
    );
    expect(result).toEqual({
      errors: {
        'users.3.items.0': [ITEM_MESSAGES.notObject],
        'users.3.items.1.type': ['The type field is required.'],
        'users.3.items.2.type': ['The type field must be a string.'],
        'users.3.items.3.amount': ['The amount field is required.'],
        'users.3.items.4.description': ['The description field must be a string of at most 200 characters.'],
        'users.3.items.5.description': ['The description field must be a string of at most 200 characters.'],
        'users.3.items.6.origin_period': ['The origin period field is required for arrears, as YYYY-MM.'],
        'users.3.items.7.origin_period': ['The origin period field is required for arrears, as YYYY-MM.'],
        'users.3.items.8.origin_period': ['The origin period field applies only to arrears.'],
        'users.3.items.9.type': ['The type field is required.'],
        'users.3.items.9.amount': ['The amount field must be greater than 0.'],
      },
    });
  });

  it('accepts a description of exactly 200 characters', () => {
    expect(parseItemsInput([{ type: 'bonus', amount: 1, description: 'd'.repeat(200) }])).toMatchObject({
      items: [{ description: 'd'.repeat(200) }],
    });
  });
});

describe('parseItemAmount: positive money, at most 2 decimals, at most ₦1 trillion', () => {
  it.each([
    [1, 100n],
    ['1', 100n],
    ['  2500.5 ', 250_050n],
    ['2500.50', 250_050n],
    ['2500.500000', 250_050n],
    ['007', 700n],
    [0.01, 1n],
    [123456.78, 12_345_678n],
    ['1000000000000', 100_000_000_000_000n],
    [1_000_000_000_000, 100_000_000_000_000n],
  ])('%j is %s kobo', (raw, kobo) => {
    expect(parseItemAmount(raw)).toBe(kobo);
  });

  it.each([
    [undefined, ITEM_MESSAGES.amountRequired],
    [null, ITEM_MESSAGES.amountRequired],
    ['', ITEM_MESSAGES.amountRequired],
    ['abc', ITEM_MESSAGES.amountNumber],
    ['1e5', ITEM_MESSAGES.amountNumber],
    ['0x10', ITEM_MESSAGES.amountNumber],
    ['1,000', ITEM_MESSAGES.amountNumber],
    [' ', ITEM_MESSAGES.amountNumber],
    [true, ITEM_MESSAGES.amountNumber],
    [{}, ITEM_MESSAGES.amountNumber],
    [Number.NaN, ITEM_MESSAGES.amountNumber],
    [Number.POSITIVE_INFINITY, ITEM_MESSAGES.amountNumber],
    [0, ITEM_MESSAGES.amountPositive],
    ['0.00', ITEM_MESSAGES.amountPositive],
    [-5, ITEM_MESSAGES.amountPositive],
    ['-5', ITEM_MESSAGES.amountPositive],
    ['-0.001', ITEM_MESSAGES.amountPositive],
    ['0.001', ITEM_MESSAGES.amountDecimals],
    [1.005, ITEM_MESSAGES.amountDecimals],
    [0.1 + 0.2, ITEM_MESSAGES.amountDecimals],
    [1e-7, ITEM_MESSAGES.amountDecimals],
    ['1000000000000.01', ITEM_MESSAGES.amountMax],
    [1e21, ITEM_MESSAGES.amountMax],
    ['99999999999999999999999', ITEM_MESSAGES.amountMax],
    [`1.${'0'.repeat(100_000)}1`, ITEM_MESSAGES.amountDecimals],
  ])('%j: %s', (raw, message) => {
    expect(parseItemAmount(raw)).toBe(message);
  });
});

describe('unknownTypeErrors', () => {
  const types = new Map<string, PayItemType>(BUILT_IN_PAY_ITEM_TYPES.map((type) => [type.code, type]));

  it('names each item whose code names no type, under the field it is given', () => {
    const items = [{ code: 'bonus' }, { code: 'made_up' }, { code: 'deduction' }, { code: 'BONUS' }];
    expect(unknownTypeErrors(items, types)).toEqual({
      'items.1.type': ['The selected type is invalid.'],
      'items.3.type': ['The selected type is invalid.'],
    });
    expect(unknownTypeErrors(items, types, 'users.0.items')).toEqual({
      'users.0.items.1.type': ['The selected type is invalid.'],
      'users.0.items.3.type': ['The selected type is invalid.'],
    });
    expect(unknownTypeErrors([{ code: 'overtime' }], types)).toEqual({});
  });
});
