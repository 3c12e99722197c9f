// Every statutory number in one dated table. A row is the law in force from `from` (inclusive)
// until the next row starts; the next Finance Act is a new row, not a code change. Amounts are
// naira (integers); percentages are whole percents.

export type TaxLawId = 'pita' | 'nta2025';

export interface TaxBand {
  /** Width of the band in naira; null = everything above. */
  width: bigint | null;
  ratePercent: bigint;
}

export interface TaxLaw {
  id: TaxLawId;
  bands: TaxBand[];
  /** PITA's consolidated relief allowance: max(floor, floorPercent × base) + extraPercent × base. */
  cra: { floor: bigint; floorPercent: bigint; extraPercent: bigint } | null;
  /** PITA's minimum tax: percent of gross income when band tax is below it. */
  minimumTaxPercent: bigint | null;
  /** NTA 2025 rent relief: min(percent × declared annual rent, cap). */
  rentRelief: { percent: bigint; cap: bigint } | null;
}

export interface StatutoryRow {
  /** First day (YYYY-MM-DD, compared with pay_period_end) this row applies. */
  from: string;
  source: string;
  law: TaxLaw;
  /** National minimum wage per month in naira; GI ≤ 12 × this is exempt from tax. */
  minimumWageMonthly: bigint;
}

const PITA: TaxLaw = {
  id: 'pita',
  bands: [
    { width: 300_000n, ratePercent: 7n },
    { width: 300_000n, ratePercent: 11n },
    { width: 500_000n, ratePercent: 15n },
    { width: 500_000n, ratePercent: 19n },
    { width: 1_600_000n, ratePercent: 21n },
    { width: null, ratePercent: 24n },
  ],
  cra: { floor: 200_000n, floorPercent: 1n, extraPercent: 20n },
  minimumTaxPercent: 1n,
  rentRelief: null,
};

const NTA_2025: TaxLaw = {
  id: 'nta2025',
  bands: [
    { width: 800_000n, ratePercent: 0n },
    { width: 2_200_000n, ratePercent: 15n },
    { width: 9_000_000n, ratePercent: 18n },
    { width: 13_000_000n, ratePercent: 21n },
    { width: 25_000_000n, ratePercent: 23n },
    { width: null, ratePercent: 25n },
  ],
  cra: null,
  minimumTaxPercent: null,
  rentRelief: { percent: 20n, cap: 500_000n },
};

/** Periods ending before this date (Finance Act 2020's commencement, the table's earliest basis) are not computed. */
export const EARLIEST_PERIOD_END = '2021-01-01';

/** Sorted by `from`. The first row also covers any earlier date. */
export const STATUTORY_TABLE: readonly StatutoryRow[] = [
  { from: '2020-01-01', source: 'PITA as amended by Finance Act 2020; Minimum Wage Act 2019', law: PITA, minimumWageMonthly: 30_000n },
  { from: '2024-07-29', source: 'PITA; National Minimum Wage (Amendment) Act 2024', law: PITA, minimumWageMonthly: 70_000n },
  {
    from: '2026-01-01',
    source: 'Nigeria Tax Act 2025; National Minimum Wage (Amendment) Act 2024',
    law: NTA_2025,
    minimumWageMonthly: 70_000n,
  },
];

/** The row in force on `date` (YYYY-MM-DD; ISO dates compare correctly as strings). */
export function statutoryRowAt(date: string, table: readonly StatutoryRow[] = STATUTORY_TABLE): StatutoryRow {
  let found = table[0];
  for (const row of table) if (row.from <= date) found = row;
  return found;
}

/** The named law as last in force on `date` (or its first version when `date` precedes it): a forced regime. */
export function lawNamed(id: TaxLawId, date: string, table: readonly StatutoryRow[] = STATUTORY_TABLE): TaxLaw {
  let found: TaxLaw | undefined;
  for (const row of table) {
    if (row.law.id !== id) continue;
    if (!found || row.from <= date) found = row.law;
  }
  if (!found) throw new Error(`No statutory row for ${id}`);
  return found;
}
