// The gross-to-net engine (payroll-engine.md). Pure: inputs in, figures out; no I/O, no clock.
// Annual figures are exact rationals held as BigInt in per-run "units" (a fraction of a kobo chosen
// so that D, 1 % and 20 % of any base divide exactly); each period figure is rounded half-up to kobo
// once, from its exact value. Tax is computed on the exact annual figures.
import { divRound, type Kobo, RATE_SCALE, toKobo, toRate } from './money.js';
import { lawNamed, STATUTORY_TABLE, type StatutoryRow, statutoryRowAt, type TaxLaw, type TaxLawId } from './statutory.js';

export type TaxRegimeSetting = 'auto' | 'pita' | 'nta2025' | 'none';
export type AppliedRegime = TaxLawId | 'none';

/** The company's contribution settings, parsed (the API keeps them as strings). */
export interface EngineSettings {
  taxRegime: TaxRegimeSetting;
  basicPercentage: string;
  housingPercentage: string;
  transportPercentage: string;
  pensionEnabled: boolean;
  employeePensionRate: string;
  employerPensionRate: string;
  nhfEnabled: boolean;
  nhfRate: string;
  nhisEnabled: boolean;
  nhisEmployeeRate: string;
  nhisEmployerRate: string;
}

export const DEFAULT_SETTINGS: EngineSettings = {
  taxRegime: 'auto',
  basicPercentage: '40',
  housingPercentage: '30',
  transportPercentage: '20',
  pensionEnabled: true,
  employeePensionRate: '8',
  employerPensionRate: '10',
  nhfEnabled: true,
  nhfRate: '2.5',
  nhisEnabled: false,
  nhisEmployeeRate: '5',
  nhisEmployerRate: '10',
};

/** A custom contribution as the engine needs it. A null value = that party is not responsible. */
export interface CustomContributionRule {
  id: number;
  name: string;
  type: 'amount' | 'percentage';
  applyTo: 'gross_pay' | 'net_pay';
  employeeValue: string | null;
  employerValue: string | null;
}

export interface PreparedCustom {
  id: number;
  name: string;
  percentage: boolean;
  onGross: boolean;
  /** Kobo (amount) or rate units (percentage); null = not responsible. */
  employee: bigint | null;
  employer: bigint | null;
}

export interface PaystubInput {
  payPeriodEnd: string;
  taxableIncome: Kobo;
  reimbursements: Kobo;
  otherAllowances: Kobo;
  periodsPerYear: number;
  annualRentPaid?: Kobo | null;
  lifeAssurancePremium?: Kobo | null;
  /** The custom contributions that apply to this paystub, in order. */
  customs?: readonly PreparedCustom[];
}

export interface CustomFigure {
  id: number;
  name: string;
  employee: Kobo;
  employer: Kobo;
}

export interface PaystubFigures {
  regime: AppliedRegime;
  /** True when GI ≤ 12 × the minimum wage (no tax, no minimum tax). */
  exempt: boolean;
  grossPay: Kobo;
  taxWithheld: Kobo;
  pension: Kobo;
  employerPension: Kobo;
  nhf: Kobo;
  nhis: Kobo;
  nhisEmployer: Kobo;
  otherDeductions: Kobo;
  netPay: Kobo;
  employerCost: Kobo;
  customs: CustomFigure[];
}

export type PaystubResult = { ok: true; figures: PaystubFigures } | { ok: false; errors: Record<string, string[]> };

export const DEDUCTIONS_EXCEED_PAY = 'Deductions exceed pay.';

const RATE2 = RATE_SCALE * RATE_SCALE; // denominator of a product of two rates

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a < 0n ? -a : a;
}

/** A rate product k / 10^12 reduced to lowest terms: fewer BigInt digits per paystub. */
interface Fraction {
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
const applyRounded = (amount: bigint, f: Fraction) => (f.num === 0n ? 0n : (2n * amount * f.num + f.den) / f.den2);

interface CompiledLaw {
  law: TaxLaw;
  /** Cumulative upper bound of each band in units (null = open top). */
  bounds: (bigint | null)[];
  rates: bigint[];
  craFloor: bigint;
  rentCap: bigint;
}

/** 100 × the band tax (units) of `taxable` units: rates are whole percents, so this stays exact. */
function bandTax100(law: CompiledLaw, taxable: bigint): bigint {
  let tax = 0n;
  let floor = 0n;
  for (let i = 0; i < law.rates.length; i++) {
    const bound = law.bounds[i];
    if (bound === null || taxable <= bound) return tax + (taxable - floor) * law.rates[i];
    tax += (bound - floor) * law.rates[i];
    floor = bound;
  }
  return tax;
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
}

function compileLaw(run: PreparedRun, law: TaxLaw): CompiledLaw {
  let hit = run.laws.get(law);
  if (hit) return hit;
  const naira = 100n * run.unit;
  let top = 0n;
  const bounds = law.bands.map((band) => {
    if (band.width === null) return null;
    top += band.width * naira;
    return top;
  });
  hit = {
    law,
    bounds,
    rates: law.bands.map((band) => band.ratePercent),
    craFloor: (law.cra?.floor ?? 0n) * naira,
    rentCap: (law.rentRelief?.cap ?? 0n) * naira,
  };
  run.laws.set(law, hit);
  return hit;
}

function rowAt(run: PreparedRun, date: string): StatutoryRow {
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
  };
}

export function prepareCustom(rule: CustomContributionRule): PreparedCustom {
  const percentage = rule.type === 'percentage';
  const parse = (value: string | null) => (value === null ? null : percentage ? toRate(value) : toKobo(value));
  const employee = parse(rule.employeeValue);
  const employer = parse(rule.employerValue);
  if ((rule.employeeValue !== null && employee === null) || (rule.employerValue !== null && employer === null)) {
    throw new RangeError(`Invalid value on custom contribution ${rule.id}`);
  }
  return { id: rule.id, name: rule.name, percentage, onGross: rule.applyTo === 'gross_pay', employee, employer };
}

/** Which regime applies to a period ending on `payPeriodEnd`. */
export function regimeFor(run: PreparedRun, payPeriodEnd: string): AppliedRegime {
  if (run.regime === 'none') return 'none';
  if (run.regime === 'auto') return rowAt(run, payPeriodEnd).law.id;
  return run.regime;
}

/** Annual tax × 100, in units. Exact. */
function annualTax100(law: CompiledLaw, gi: bigint, deductions: bigint, rent: bigint): bigint {
  const spec = law.law;
  let taxable: bigint;
  if (spec.cra) {
    const base = gi > deductions ? gi - deductions : 0n;
    const onePercent = (base * spec.cra.floorPercent) / 100n; // exact: base is a multiple of 100 units
    const cra = (onePercent > law.craFloor ? onePercent : law.craFloor) + (base * spec.cra.extraPercent) / 100n;
    taxable = gi - cra - deductions;
  } else {
    let relief = 0n;
    if (spec.rentRelief && rent > 0n) {
      relief = (rent * spec.rentRelief.percent) / 100n;
      if (relief > law.rentCap) relief = law.rentCap;
    }
    taxable = gi - deductions - relief;
  }
  let tax = taxable > 0n ? bandTax100(law, taxable) : 0n;
  if (spec.minimumTaxPercent !== null) {
    const minimum = gi * spec.minimumTaxPercent; // 100 × (percent/100 × GI)
    if (tax < minimum) tax = minimum;
  }
  return tax;
}

export function computePaystub(run: PreparedRun, input: PaystubInput): PaystubResult {
  const t = input.taxableIncome;
  const n = BigInt(input.periodsPerYear);
  const gross = t + input.otherAllowances;
  const pension = applyRounded(t, run.pension);
  const employerPension = applyRounded(t, run.pensionEmployer);
  const nhf = applyRounded(t, run.nhf);
  const nhis = applyRounded(t, run.nhis);
  const nhisEmployer = applyRounded(t, run.nhisEmployer);

  const row = rowAt(run, input.payPeriodEnd);
  const regime: AppliedRegime = run.regime === 'none' ? 'none' : run.regime === 'auto' ? row.law.id : run.regime;
  const giKobo = t * n;
  const exempt = giKobo <= 12n * row.minimumWageMonthly * 100n;
  let tax = 0n;
  if (regime !== 'none' && !exempt && giKobo > 0n) {
    const law = compileLaw(run, regime === row.law.id ? row.law : lawNamed(regime, input.payPeriodEnd, run.table));
    const unit = run.unit;
    const deductions = giKobo * run.deductionsPerKobo + (input.lifeAssurancePremium ?? 0n) * unit;
    const tax100 = annualTax100(law, giKobo * unit, deductions, (input.annualRentPaid ?? 0n) * unit);
    tax = divRound(tax100, 100n * unit * n);
  }

  const netBefore = gross - tax - pension - nhf - nhis;
  const customs: CustomFigure[] = [];
  let other = 0n;
  let employerCustom = 0n;
  if (input.customs) {
    for (const custom of input.customs) {
      const base = custom.onGross ? gross : netBefore > 0n ? netBefore : 0n;
      const ev = custom.employee;
      const rv = custom.employer;
      const employee = ev === null ? 0n : custom.percentage ? divRound(base * ev, RATE_SCALE) : ev;
      const employer = rv === null ? 0n : custom.percentage ? divRound(base * rv, RATE_SCALE) : rv;
      other += employee;
      employerCustom += employer;
      customs.push({ id: custom.id, name: custom.name, employee, employer });
    }
  }
  const net = netBefore - other + input.reimbursements;
  if (net < 0n) return { ok: false, errors: { taxable_income: [DEDUCTIONS_EXCEED_PAY] } };
  return {
    ok: true,
    figures: {
      regime,
      exempt,
      grossPay: gross,
      taxWithheld: tax,
      pension,
      employerPension,
      nhf,
      nhis,
      nhisEmployer,
      otherDeductions: other,
      netPay: net,
      employerCost: gross + employerPension + nhisEmployer + employerCustom,
      customs,
    },
  };
}

export const PERIODS_PER_YEAR: Record<string, number> = { weekly: 52, 'bi-weekly': 26, monthly: 12 };
