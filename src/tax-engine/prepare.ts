// Per-run constants of the gross-to-net engine (docs/payroll.md, "The engine"): the settings parsed
// once per run into reduced rate fractions and the unit annual figures are held in, with the run's
// caches (compiled tax laws, statutory rows by date) and its variants without NHF or pension.
// engine.ts computes each paystub from a PreparedRun; nothing here runs per paystub but the cache look-ups.
import { DEDUCTION_UNITS_PER_KOBO } from './cumulative.js';
import type { EngineSettings, TaxMethod, TaxRegimeSetting } from './engine.types.js';
import type { RawRates } from './items.js';
import { RATE_SCALE, toRate } from './money.js';
import { STATUTORY_TABLE, type StatutoryRow, statutoryRowAt, type TaxLaw } from './statutory.js';
import { type CompiledLaw, compileLaw } from './tax.js';

const RATE2 = RATE_SCALE * RATE_SCALE; // denominator of a product of two rates

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a < 0n ? -a : a;
}

/** A rate product k / 10^12 reduced to lowest terms: fewer BigInt digits per paystub. */
export interface Fraction {
  num: bigint;
  /** 2 × the reduced denominator, for half-up rounding: (2·n·num + den) / (2·den). */
  den2: bigint;
  den: bigint;
}
function fraction(k: bigint): Fraction {
  const g = gcd(k, RATE2) || 1n;
  const den = RATE2 / g;
  return { num: k / g, den, den2: 2n * den };
}

export interface PreparedRun {
  regime: TaxRegimeSetting;
  table: readonly StatutoryRow[];
  pension: Fraction;
  pensionEmployer: Fraction;
  nhf: Fraction;
  nhis: Fraction;
  nhisEmployer: Fraction;
  /**
   * Annual figures are held in units of 1/unit kobo, where unit = 100 × the denominator of D's
   * rate: D, 1 % and 20 % of any base are then exact integers.
   */
  unit: bigint;
  /** D per kobo of GI, in units: GI × deductionsPerKobo is D exactly. */
  deductionsPerKobo: bigint;
  laws: Map<TaxLaw, CompiledLaw>;
  rows: Map<string, StatutoryRow>;
  settings: EngineSettings;
  taxMethod: TaxMethod;
  /** D ÷ N per kobo of T, in DEDUCTION_UNITS_PER_KOBO (the unreduced rate product × 156). */
  periodDeductionsPerKobo: bigint;
  /** The same run for employees without NHF (nhfApplies false), prepared on first use. */
  withoutNhf?: PreparedRun;
  /** The same run for employees exempt from pension (pensionApplies false), prepared on first use. */
  withoutPension?: PreparedRun;
  /** Unreduced rate products (÷ RATE2) and single rates (÷ RATE_SCALE), for paystubs with items. */
  raw: RawRates;
}

export function compiledLaw(run: PreparedRun, law: TaxLaw): CompiledLaw {
  let hit = run.laws.get(law);
  if (!hit) {
    hit = compileLaw(law, run.unit);
    run.laws.set(law, hit);
  }
  return hit;
}

export function rowAt(run: PreparedRun, date: string): StatutoryRow {
  let row = run.rows.get(date);
  if (!row) {
    row = statutoryRowAt(date, run.table);
    run.rows.set(date, row);
  }
  return row;
}

function rate(value: string, name: string): bigint {
  const parsed = toRate(value);
  if (parsed === null || parsed > 100n * 10_000n) throw new RangeError(`Invalid ${name}: ${value}`);
  return parsed;
}

/** Per-run constants: parse the settings once, not once per paystub. Throws on invalid settings. */
export function prepareRun(settings: EngineSettings, table: readonly StatutoryRow[] = STATUTORY_TABLE): PreparedRun {
  const basic = rate(settings.basicPercentage, 'basic_percentage');
  const bht = basic + rate(settings.housingPercentage, 'housing_percentage') + rate(settings.transportPercentage, 'transport_percentage');
  const kPension = settings.pensionEnabled ? bht * rate(settings.employeePensionRate, 'employee_pension_rate') : 0n;
  const kPensionEmployer = settings.pensionEnabled ? bht * rate(settings.employerPensionRate, 'employer_pension_rate') : 0n;
  const kNhf = settings.nhfEnabled ? basic * rate(settings.nhfRate, 'nhf_rate') : 0n;
  const kNhis = settings.nhisEnabled ? basic * rate(settings.nhisEmployeeRate, 'nhis_employee_rate') : 0n;
  const kNhisEmployer = settings.nhisEnabled ? basic * rate(settings.nhisEmployerRate, 'nhis_employer_rate') : 0n;
  const deductions = fraction(kPension + kNhf + kNhis);
  const raw: RawRates = {
    pension: kPension,
    pensionEmployer: kPensionEmployer,
    nhf: kNhf,
    nhis: kNhis,
    nhisEmployer: kNhisEmployer,
    pensionRate: settings.pensionEnabled ? rate(settings.employeePensionRate, 'employee_pension_rate') : 0n,
    pensionEmployerRate: settings.pensionEnabled ? rate(settings.employerPensionRate, 'employer_pension_rate') : 0n,
    nhfRate: settings.nhfEnabled ? rate(settings.nhfRate, 'nhf_rate') : 0n,
  };
  const taxMethod = settings.taxMethod ?? 'annualised';
  if (taxMethod !== 'annualised' && taxMethod !== 'cumulative') throw new RangeError(`Invalid tax_method: ${taxMethod}`);
  return {
    regime: settings.taxRegime,
    table,
    pension: fraction(kPension),
    pensionEmployer: fraction(kPensionEmployer),
    nhf: fraction(kNhf),
    nhis: fraction(kNhis),
    nhisEmployer: fraction(kNhisEmployer),
    unit: 100n * deductions.den,
    deductionsPerKobo: 100n * deductions.num,
    laws: new Map(),
    rows: new Map(),
    settings,
    taxMethod,
    periodDeductionsPerKobo: (kPension + kNhf + kNhis) * (DEDUCTION_UNITS_PER_KOBO / RATE2),
    raw,
  };
}

export function runFor(run: PreparedRun, nhf: boolean | undefined, pension?: boolean): PreparedRun {
  if (pension === false && run.settings.pensionEnabled) {
    run.withoutPension ??= prepareRun({ ...run.settings, pensionEnabled: false }, run.table);
    return runFor(run.withoutPension, nhf);
  }
  if (nhf !== false || run.nhf.num === 0n) return run;
  run.withoutNhf ??= prepareRun({ ...run.settings, nhfEnabled: false }, run.table);
  return run.withoutNhf;
}
