// Golden tables: every expected figure below was computed by hand from docs/payroll.md, "The
// engine"; the arithmetic is in the comment of each row. Defaults: basic 40, housing 30, transport
// 20 (BHT 90 %), employee pension 8 % of BHT (= 7.2 % of T), NHF 2.5 % of basic (= 1 % of T), so D =
// 8.2 % of GI (10.2 % with NHIS at 5 % of basic = 2 % of T). Amounts in naira. Properties over
// generated inputs are in engine.properties.test.ts.
import { describe, expect, test } from 'vitest';
import { computePaystub, prepareCustom, prepareRun } from './engine.js';
import { type CustomContributionRule, DEFAULT_SETTINGS, type EngineSettings, type PaystubFigures } from './engine.types.js';
import { divRound, koboToNumber, koboToString, toKobo, toRate } from './money.js';
import { STATUTORY_TABLE, statutoryRowAt } from './statutory.js';

interface Case {
  name: string;
  settings?: Partial<EngineSettings>;
  t: string;
  n?: number;
  end: string;
  r?: string;
  a?: string;
  rent?: string;
  life?: string;
  customs?: Omit<CustomContributionRule, 'id'>[];
  expect: Partial<Record<'tax' | 'pension' | 'nhf' | 'nhis' | 'nhisEmployer' | 'net' | 'gross' | 'other' | 'employerCost', string>> & {
    regime?: string;
    customs?: [string, string][];
  };
}

const k = (naira: string) => toKobo(naira) as bigint;

function run(c: Case): PaystubFigures {
  const prepared = prepareRun({ ...DEFAULT_SETTINGS, ...c.settings });
  const result = computePaystub(prepared, {
    payPeriodEnd: c.end,
    taxableIncome: k(c.t),
    reimbursements: k(c.r ?? '0'),
    otherAllowances: k(c.a ?? '0'),
    periodsPerYear: c.n ?? 12,
    annualRentPaid: c.rent ? k(c.rent) : null,
    lifeAssurancePremium: c.life ? k(c.life) : null,
    customs: (c.customs ?? []).map((rule, i) => prepareCustom({ ...rule, id: i + 1 })),
  });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.figures;
}

function check(c: Case) {
  const f = run(c);
  const e = c.expect;
  const pairs: [string | undefined, bigint][] = [
    [e.tax, f.taxWithheld],
    [e.pension, f.pension],
    [e.nhf, f.nhf],
    [e.nhis, f.nhis],
    [e.nhisEmployer, f.nhisEmployer],
    [e.net, f.netPay],
    [e.gross, f.grossPay],
    [e.other, f.otherDeductions],
    [e.employerCost, f.employerCost],
  ];
  for (const [want, got] of pairs) if (want !== undefined) expect(koboToString(got)).toBe(koboToString(k(want)));
  if (e.regime) expect(f.regime).toBe(e.regime);
  if (e.customs) expect(f.customs.map((x) => [koboToString(x.employee), koboToString(x.employer)])).toEqual(e.customs);
  // The net identity always holds on the rounded figures.
  expect(f.netPay).toBe(f.grossPay - f.taxWithheld - f.pension - f.nhf - f.nhis - f.otherDeductions + k(c.r ?? '0'));
}

const PITA_CASES: Case[] = [
  {
    // PwC worked example on an annual basis (N = 1): BHT 100 % so pension 8 % × 4,000,000 = 320,000; NHF off.
    // base 3,680,000; CRA = max(200,000, 36,800) + 736,000 = 936,000; taxable = 4,000,000 − 936,000 − 320,000 = 2,744,000
    // tax = 21,000 + 33,000 + 75,000 + 95,000 + 21 % × 1,144,000 (240,240) = 464,240.
    name: 'PwC example GI 4,000,000 pension 320,000 → 464,240',
    settings: { basicPercentage: '50', housingPercentage: '30', transportPercentage: '20', nhfEnabled: false },
    t: '4000000',
    n: 1,
    end: '2025-12-31',
    expect: { tax: '464240', pension: '320000', nhf: '0', net: '3215760', regime: 'pita' },
  },
  {
    // T 500,000 monthly: GI 6,000,000; D = 492,000; base 5,508,000; CRA = 200,000 + 1,101,600 = 1,301,600
    // taxable 4,206,400: 560,000 on the first 3,200,000 + 24 % × 1,006,400 (241,536) = 801,536 (top band)
    // ÷ 12 = 66,794.666… → 66,794.67; pension 36,000; NHF 5,000; net 392,205.33.
    name: 'top band 24 %, monthly',
    t: '500000',
    end: '2025-03-31',
    expect: { tax: '66794.67', pension: '36000', nhf: '5000', net: '392205.33', employerCost: '545000' },
  },
  {
    // Minimum tax: T 100,000 monthly, life assurance 700,000. GI 1,200,000; D = 98,400 + 700,000 = 798,400;
    // base 401,600; CRA = 200,000 + 80,320 = 280,320; taxable = 121,280 → 7 % = 8,489.60 < 1 % × GI = 12,000
    // → tax 12,000 ÷ 12 = 1,000; net = 100,000 − 1,000 − 7,200 − 1,000 = 90,800.
    name: 'minimum tax 1 % of GI',
    t: '100000',
    end: '2025-06-30',
    life: '700000',
    expect: { tax: '1000', net: '90800' },
  },
  {
    // Before 2024-07-29 the exemption line is 12 × 30,000 = 360,000. T 35,000: GI 420,000 > 360,000.
    // D = 34,440; base 385,560; CRA = 200,000 + 77,112 = 277,112; taxable 108,448 × 7 % = 7,591.36 (> 4,200)
    // ÷ 12 = 632.613… → 632.61; net = 35,000 − 632.61 − 2,520 − 350 = 31,497.39.
    name: 'taxed above the old minimum wage (2024-07-28)',
    t: '35000',
    end: '2024-07-28',
    expect: { tax: '632.61', net: '31497.39' },
  },
  {
    // From 2024-07-29 the line is 12 × 70,000 = 840,000: the same GI 420,000 is exempt; net = 35,000 − 2,520 − 350.
    name: 'exempt under the new minimum wage (2024-07-29)',
    t: '35000',
    end: '2024-07-29',
    expect: { tax: '0', net: '32130' },
  },
  {
    // GI exactly 12 × 30,000 = 360,000 before the change: exempt (≤), minimum tax included.
    name: 'exempt at exactly 12 × old minimum wage',
    t: '30000',
    end: '2024-01-31',
    expect: { tax: '0', net: '27540' },
  },
  {
    // T 75,000: GI 900,000 > 840,000. D 73,800; base 826,200; CRA = 200,000 + 165,240 = 365,240; taxable 460,960
    // tax = 21,000 + 11 % × 160,960 (17,705.60) = 38,705.60 ÷ 12 = 3,225.466… → 3,225.47; net 65,624.53.
    name: 'just above the new minimum wage',
    t: '75000',
    end: '2025-01-31',
    expect: { tax: '3225.47', pension: '5400', nhf: '750', net: '65624.53' },
  },
  {
    // Weekly T 20,000: GI 1,040,000; D 85,280; base 954,720; CRA = 200,000 + 190,944 = 390,944; taxable 563,776
    // tax = 21,000 + 11 % × 263,776 (29,015.36) = 50,015.36 ÷ 52 = 961.833… → 961.83; net = 20,000 − 961.83 − 1,440 − 200.
    name: 'weekly',
    t: '20000',
    n: 52,
    end: '2025-05-09',
    expect: { tax: '961.83', pension: '1440', nhf: '200', net: '17398.17' },
  },
  {
    // Bi-weekly T 100,000: GI 2,600,000; D 213,200; base 2,386,800; CRA = 200,000 + 477,360 = 677,360; taxable 1,709,440
    // tax = 224,000 + 21 % × 109,440 (22,982.40) = 246,982.40 ÷ 26 = 9,499.323… → 9,499.32; net 82,300.68.
    name: 'bi-weekly',
    t: '100000',
    n: 26,
    end: '2025-08-15',
    expect: { tax: '9499.32', pension: '7200', nhf: '1000', net: '82300.68' },
  },
  {
    // NHIS on, T 200,000: D = 10.2 % × 2,400,000 = 244,800; base 2,155,200; CRA = 200,000 + 431,040 = 631,040;
    // taxable 1,524,160; tax = 129,000 + 19 % × 424,160 (80,590.40) = 209,590.40 ÷ 12 = 17,465.866… → 17,465.87
    // NHIS 5 % × 80,000 = 4,000, employer 8,000; net = 200,000 − 17,465.87 − 14,400 − 2,000 − 4,000 = 162,134.13
    // employer cost = 200,000 + 18,000 + 8,000 = 226,000.
    name: 'NHIS on',
    t: '200000',
    end: '2025-09-30',
    settings: { nhisEnabled: true },
    expect: { tax: '17465.87', nhis: '4000', nhisEmployer: '8000', net: '162134.13', employerCost: '226000' },
  },
  {
    // NHIS off, T 200,000: D = 196,800; base 2,203,200; CRA = 200,000 + 440,640 = 640,640; taxable 1,562,560
    // tax = 129,000 + 19 % × 462,560 (87,886.40) = 216,886.40 ÷ 12 = 18,073.866… → 18,073.87; net 165,526.13.
    name: 'NHIS off',
    t: '200000',
    end: '2025-09-30',
    expect: { tax: '18073.87', nhis: '0', nhisEmployer: '0', net: '165526.13', employerCost: '218000' },
  },
  {
    // Allowances are pay but not taxable; reimbursements are paid back after deductions. Tax as in "top band".
    // gross 550,000; net = 550,000 − 66,794.67 − 36,000 − 5,000 + 12,345.67 = 454,551.00.
    name: 'allowances and reimbursements',
    t: '500000',
    a: '50000',
    r: '12345.67',
    end: '2025-03-31',
    expect: { gross: '550000', tax: '66794.67', net: '454551', employerCost: '595000' },
  },
  {
    // Custom contributions on the "top band" stub: 2 % of gross (10,000); 5 % of net before customs
    // (392,205.33 × 5 % = 19,610.2665 → 19,610.27) with employer 1 % (3,922.0533 → 3,922.05).
    // net = 392,205.33 − 29,610.27 = 362,595.06; employer cost = 500,000 + 45,000 + 3,922.05.
    name: 'custom percentage on gross and on net',
    t: '500000',
    end: '2025-03-31',
    customs: [
      { name: 'Welfare', type: 'percentage', applyTo: 'gross_pay', employeeValue: '2', employerValue: null },
      { name: 'Co-op', type: 'percentage', applyTo: 'net_pay', employeeValue: '5', employerValue: '1' },
    ],
    expect: {
      other: '29610.27',
      net: '362595.06',
      employerCost: '548922.05',
      customs: [
        ['10000.00', '0.00'],
        ['19610.27', '3922.05'],
      ],
    },
  },
  {
    // Rent relief does not exist under PITA: the declared rent changes nothing (tax as "top band").
    name: 'rent ignored under PITA',
    t: '500000',
    end: '2025-03-31',
    rent: '2000000',
    expect: { tax: '66794.67' },
  },
  {
    // tax_regime forced to pita for a 2026 period: PITA figures (as "top band").
    name: 'forced PITA in 2026',
    t: '500000',
    end: '2026-03-31',
    settings: { taxRegime: 'pita' },
    expect: { tax: '66794.67', regime: 'pita' },
  },
  {
    name: 'tax_regime none',
    t: '500000',
    end: '2025-03-31',
    settings: { taxRegime: 'none' },
    expect: { tax: '0', net: '459000', regime: 'none' },
  },
];

const NTA_CASES: Case[] = [
  {
    // T 500,000: GI 6,000,000; D 492,000; chargeable 5,508,000; tax = 0 + 15 % × 2,200,000 (330,000)
    // + 18 % × 2,508,000 (451,440) = 781,440 ÷ 12 = 65,120; net = 500,000 − 65,120 − 36,000 − 5,000 = 393,880.
    name: 'monthly 500,000',
    t: '500000',
    end: '2026-01-31',
    expect: { tax: '65120', net: '393880', regime: 'nta2025' },
  },
  {
    // Rent 1,200,000 → relief 240,000; chargeable 5,268,000; tax = 330,000 + 18 % × 2,268,000 (408,240) = 738,240 ÷ 12 = 61,520.
    name: 'rent relief below the cap',
    t: '500000',
    end: '2026-01-31',
    rent: '1200000',
    expect: { tax: '61520', net: '397480' },
  },
  {
    // Rent 5,000,000 → 20 % = 1,000,000, capped at 500,000; chargeable 5,008,000; tax = 330,000 + 361,440 = 691,440 ÷ 12 = 57,620.
    name: 'rent relief capped at 500,000',
    t: '500000',
    end: '2026-01-31',
    rent: '5000000',
    expect: { tax: '57620' },
  },
  {
    // T 5,000,000: GI 60,000,000; D 4,920,000; chargeable 55,080,000; tax = 330,000 + 1,620,000 + 2,730,000
    // + 5,750,000 + 25 % × 5,080,000 (1,270,000) = 11,700,000 ÷ 12 = 975,000 (top band);
    // net = 5,000,000 − 975,000 − 360,000 − 50,000.
    name: 'top band 25 %',
    t: '5000000',
    end: '2026-06-30',
    expect: { tax: '975000', net: '3615000' },
  },
  {
    // T 1,500,000: GI 18,000,000; D 1,476,000; chargeable 16,524,000; tax = 330,000 + 1,620,000
    // + 21 % × 4,524,000 (950,040) = 2,900,040 ÷ 12 = 241,670.
    name: '21 % band',
    t: '1500000',
    end: '2026-07-31',
    expect: { tax: '241670' },
  },
  {
    // T 75,000: GI 900,000; D 73,800; chargeable 826,200; tax = 15 % × 26,200 = 3,930 ÷ 12 = 327.50 (no minimum tax).
    name: 'just above the zero band',
    t: '75000',
    end: '2026-02-28',
    expect: { tax: '327.5', net: '68522.5' },
  },
  {
    // T 72,000: GI 864,000 (> 840,000, not exempt); D 70,848; chargeable 793,152 ≤ 800,000 → 0; no minimum tax.
    name: 'inside the 0 % band, no minimum tax',
    t: '72000',
    end: '2026-02-28',
    expect: { tax: '0', net: '66096' },
  },
  {
    // Weekly T 100,000: GI 5,200,000; D 426,400; chargeable 4,773,600; tax = 330,000 + 18 % × 1,773,600 (319,248)
    // = 649,248 ÷ 52 = 12,485.538… → 12,485.54; net = 100,000 − 12,485.54 − 7,200 − 1,000 = 79,314.46.
    name: 'weekly',
    t: '100000',
    n: 52,
    end: '2026-03-06',
    expect: { tax: '12485.54', net: '79314.46' },
  },
  {
    // Bi-weekly T 250,000: GI 6,500,000; D 533,000; chargeable 5,967,000; tax = 330,000 + 18 % × 2,967,000 (534,060)
    // = 864,060 ÷ 26 = 33,233.076… → 33,233.08; net = 250,000 − 33,233.08 − 18,000 − 2,500 = 196,266.92.
    name: 'bi-weekly',
    t: '250000',
    n: 26,
    end: '2026-04-10',
    expect: { tax: '33233.08', net: '196266.92' },
  },
  {
    // NHIS on, T 500,000: D = 10.2 % × 6,000,000 = 612,000; chargeable 5,388,000; tax = 330,000 + 429,840 = 759,840
    // ÷ 12 = 63,320; NHIS 10,000 (employer 20,000); net = 500,000 − 63,320 − 36,000 − 5,000 − 10,000 = 385,680.
    name: 'NHIS on',
    t: '500000',
    end: '2026-05-31',
    settings: { nhisEnabled: true },
    expect: { tax: '63320', nhis: '10000', nhisEmployer: '20000', net: '385680', employerCost: '565000' },
  },
  {
    // Custom contributions on "monthly 500,000" (net before customs 393,880): 1.5 % of gross = 7,500;
    // 10 % of net = 39,388 with employer 5 % = 19,694; an employer-only amount 2,500.50.
    // net = 393,880 − 46,888 = 346,992; employer cost = 500,000 + 45,000 + 19,694 + 2,500.50 = 567,194.50.
    name: 'custom percentages and amount',
    t: '500000',
    end: '2026-01-31',
    customs: [
      { name: 'Welfare', type: 'percentage', applyTo: 'gross_pay', employeeValue: '1.5', employerValue: null },
      { name: 'Savings', type: 'percentage', applyTo: 'net_pay', employeeValue: '10', employerValue: '5' },
      { name: 'HMO top-up', type: 'amount', applyTo: 'gross_pay', employeeValue: null, employerValue: '2500.50' },
    ],
    expect: {
      other: '46888',
      net: '346992',
      employerCost: '567194.5',
      customs: [
        ['7500.00', '0.00'],
        ['39388.00', '19694.00'],
        ['0.00', '2500.50'],
      ],
    },
  },
  {
    // Life assurance 300,000 is deductible under NTA too: D 792,000; chargeable 5,208,000; tax = 330,000 + 397,440 = 727,440 ÷ 12 = 60,620.
    name: 'life assurance premium',
    t: '500000',
    end: '2026-01-31',
    life: '300000',
    expect: { tax: '60620' },
  },
  {
    // tax_regime forced to nta2025 for a 2025 period: as "monthly 500,000".
    name: 'forced NTA 2025 in 2025',
    t: '500000',
    end: '2025-03-31',
    settings: { taxRegime: 'nta2025' },
    expect: { tax: '65120', regime: 'nta2025' },
  },
  {
    // GI 840,000 = 12 × 70,000: exempt.
    name: 'exempt at the minimum wage',
    t: '70000',
    end: '2026-01-31',
    expect: { tax: '0' },
  },
];

describe('PITA (periods ending to 2025-12-31)', () => {
  test.each(PITA_CASES)('$name', (c) => check(c));
});

describe('Nigeria Tax Act 2025 (periods ending from 2026-01-01)', () => {
  test.each(NTA_CASES)('$name', (c) => check(c));
});

describe('engine edges', () => {
  test('deductions exceeding pay fail the item', () => {
    const prepared = prepareRun(DEFAULT_SETTINGS);
    const custom = prepareCustom({
      id: 1,
      name: 'Loan',
      type: 'amount',
      applyTo: 'gross_pay',
      employeeValue: '200000',
      employerValue: null,
    });
    const result = computePaystub(prepared, {
      payPeriodEnd: '2026-01-31',
      taxableIncome: k('100000'),
      reimbursements: 0n,
      otherAllowances: 0n,
      periodsPerYear: 12,
      customs: [custom],
    });
    expect(result).toEqual({ ok: false, errors: { taxable_income: ['Deductions exceed pay.'] } });
  });

  test('rounding is half-up from the exact value', () => {
    expect(divRound(5n, 10n)).toBe(1n);
    expect(divRound(4n, 10n)).toBe(0n);
    expect(divRound(15n, 10n)).toBe(2n);
    expect(divRound(-5n, 10n)).toBe(-1n);
    // T 0.07 × 7.2 % = 0.00504 naira = 0.504 kobo → 1 kobo; 1 % NHF = 0.07 kobo → 0.
    const f = run({ name: '', t: '0.07', end: '2026-01-31', expect: {} });
    expect([f.pension, f.nhf]).toEqual([1n, 0n]);
  });

  test('money parsing is strict and exact', () => {
    expect(toKobo(1234.56)).toBe(123456n);
    expect(toKobo('0.1')).toBe(10n);
    expect(toKobo(0.1 + 0.2)).toBeNull(); // 0.30000000000000004 has more than two decimals
    expect(toKobo(-1)).toBeNull();
    expect(toKobo('1e5')).toBeNull();
    expect(toKobo('12.340')).toBe(1234n);
    expect(toRate('2.5')).toBe(25_000n);
    expect(koboToNumber(123456n)).toBe(1234.56);
    expect(koboToString(5n)).toBe('0.05');
  });

  test('the statutory table is dated', () => {
    expect(statutoryRowAt('2024-07-28').minimumWageMonthly).toBe(30_000n);
    expect(statutoryRowAt('2024-07-29').minimumWageMonthly).toBe(70_000n);
    expect(statutoryRowAt('2025-12-31').law.id).toBe('pita');
    expect(statutoryRowAt('2026-01-01').law.id).toBe('nta2025');
    expect(statutoryRowAt('2010-01-01')).toBe(STATUTORY_TABLE[0]);
  });
});
