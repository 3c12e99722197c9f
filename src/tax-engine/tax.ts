// The annual tax of one law on exact figures. Amounts are integers in a caller-chosen unit (1/unit
// kobo) so that the figures and the reliefs' percentages divide exactly: the annualised engine uses a
// per-run unit (engine.ts), the cumulative method one that also absorbs N ÷ k (cumulative.ts).
import type { TaxLaw } from './statutory.js';

export interface CompiledLaw {
  law: TaxLaw;
  /** Cumulative upper bound of each band in units (null = open top). */
  bounds: (bigint | null)[];
  rates: bigint[];
  craFloor: bigint;
  rentCap: bigint;
}

/** The law's naira thresholds in units of 1/unit kobo. */
export function compileLaw(law: TaxLaw, unit: bigint): CompiledLaw {
  const naira = 100n * unit;
  let top = 0n;
  const bounds = law.bands.map((band) => {
    if (band.width === null) return null;
    top += band.width * naira;
    return top;
  });
  return {
    law,
    bounds,
    rates: law.bands.map((band) => band.ratePercent),
    craFloor: (law.cra?.floor ?? 0n) * naira,
    rentCap: (law.rentRelief?.cap ?? 0n) * naira,
  };
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

/**
 * Annual tax × 100, in units, of gross income `gi`, deductions and declared rent (all in units).
 * Exact when gi, deductions and rent are multiples of 100 units (1 % and 20 % of them are integers).
 */
export function annualTax100(law: CompiledLaw, gi: bigint, deductions: bigint, rent: bigint): bigint {
  const spec = law.law;
  let taxable: bigint;
  if (spec.cra) {
    const base = gi > deductions ? gi - deductions : 0n;
    const onePercent = (base * spec.cra.floorPercent) / 100n;
    // biome-ignore lint/complexity/useMathMinMax: BigInt kobo; Math.max throws on bigint.
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
