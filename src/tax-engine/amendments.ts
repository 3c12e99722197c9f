// Rules of the amendments of docs/payroll.md, "Statutory amendments" that decide the engine's
// inputs (the cumulative method is cumulative.ts). Pure.
import { DEDUCTION_UNITS_PER_KOBO } from './cumulative.js';
import type { PreparedCustom } from './engine.types.js';
import { type Kobo, RATE_SCALE } from './money.js';

/**
 * NHF is voluntary in the private sector (Business Facilitation Act 2023 s.45): it applies to an
 * employee of a public-sector company, or one who opted in. An opt-in not given (undefined) keeps
 * NHF, as before the amendment.
 */
export function nhfApplies(sector: 'private' | 'public' | null | undefined, nhfOptIn: boolean | null | undefined): boolean {
  return sector === 'public' || nhfOptIn !== false;
}

/** Σ exact employee parts of the tax-deductible custom contributions (one-off ones, or the others), in DEDUCTION_UNITS_PER_KOBO. */
export function deductibleUnits(gross: Kobo, customs: readonly PreparedCustom[] | undefined, oneOff: boolean): bigint {
  let units = 0n;
  for (const custom of customs ?? []) {
    if (!custom.taxDeductible || !custom.onGross || custom.employee === null) continue;
    if ((custom.oneOff === true) !== oneOff) continue;
    units += custom.percentage
      ? gross * custom.employee * (DEDUCTION_UNITS_PER_KOBO / RATE_SCALE)
      : custom.employee * DEDUCTION_UNITS_PER_KOBO;
  }
  return units;
}
