// The annual return's reliefs per employee (docs/compliance.md, "Annual return and ITF"): rent
// relief, life assurance, pension and NHF relief and the chargeable income they leave. Pure: the
// row's sums and the user's declared figures in, kobo out.
import type { Kobo } from '../../tax-engine/money.js';
import type { EmployeeRow } from './remittances.repo.js';
import { kobo } from './remittances.schedules.planner.js';

/** Nigeria Tax Act 2025 s.30 (docs/payroll.md, "Legal source of each rule"): from 2026. */
const NTA_FIRST_YEAR = 2026;
const RENT_RELIEF_PERCENT = 20n;
const RENT_RELIEF_CAP: Kobo = 500_000_00n;

export interface AnnualReliefs {
  rentRelief: Kobo;
  lifeAssurance: Kobo;
  pensionNhfRelief: Kobo;
  /** null before 2026: PITA's consolidated relief allowance is not reproduced on the return. */
  chargeableIncome: Kobo | null;
}

export function annualReliefs(row: EmployeeRow, year: number): AnnualReliefs {
  const nta = year >= NTA_FIRST_YEAR;
  // 20 % of the declared annual rent, rounded half-up to the kobo, at most ₦500,000 (NTA 2025 only).
  const rent = nta ? (kobo(row.annual_rent_paid) * RENT_RELIEF_PERCENT + 50n) / 100n : 0n;
  const rentRelief = rent > RENT_RELIEF_CAP ? RENT_RELIEF_CAP : rent;
  const lifeAssurance = kobo(row.life_assurance_premium);
  const pensionNhfRelief = kobo(row.employee_pension) + kobo(row.nhf);
  if (!nta) return { rentRelief, lifeAssurance, pensionNhfRelief, chargeableIncome: null };
  const chargeable = kobo(row.taxable) - pensionNhfRelief - kobo(row.nhis) - lifeAssurance - rentRelief;
  return { rentRelief, lifeAssurance, pensionNhfRelief, chargeableIncome: chargeable > 0n ? chargeable : 0n };
}
