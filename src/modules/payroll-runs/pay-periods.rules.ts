// One pay period of the company's payment frequency (docs/payroll-runs.md, "One salary per
// period"): a run computed from salaries pays one period of base salary, so its dates must be one
// period long. Pure: table-tested in pay-periods.rules.test.ts.

export type PayFrequency = 'monthly' | 'weekly' | 'bi-weekly';

/** The kinds of run a frequency check applies to; off-cycle runs (bonuses, corrections) will be exempt. */
export type RunKind = 'regular';

const DAY_MS = 86_400_000;
const parse = (date: string) => {
  const [y, m, d] = date.split('-').map(Number);
  return { y, m, d };
};
const iso = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * The end of the one pay period that starts on `start`. Monthly: the day before the same day of
 * the next month (1 Nov → 30 Nov, 26 Oct → 25 Nov); when the next month is too short for that day
 * (31 Jan, 30 Jan, in a common year 29 Jan), its last day. Weekly: 7 days. Bi-weekly: 14 days.
 */
export function periodEnd(frequency: PayFrequency, start: string): string {
  if (frequency === 'weekly') return addDays(start, 6);
  if (frequency === 'bi-weekly') return addDays(start, 13);
  const { y, m, d } = parse(start);
  if (d === 1) return iso(y, m, daysIn(y, m));
  const [ny, nm] = m === 12 ? [y + 1, 1] : [y, m + 1];
  return iso(ny, nm, Math.min(d - 1, daysIn(ny, nm)));
}

const FREQUENCY_WORDS: Record<PayFrequency, string> = { monthly: 'monthly', weekly: 'weekly', 'bi-weekly': 'bi-weekly' };

/**
 * The message for `pay_period_end` when the dates are not one period of the frequency, else
 * undefined. Unknown frequencies are treated as monthly (the company's default).
 */
export function periodMismatch(frequency: string, start: string, end: string, kind: RunKind = 'regular'): string | undefined {
  if (kind !== 'regular') return undefined;
  const known: PayFrequency = frequency === 'weekly' || frequency === 'bi-weekly' ? frequency : 'monthly';
  const expected = periodEnd(known, start);
  if (end === expected) return undefined;
  return `The pay period must be one ${FREQUENCY_WORDS[known]} pay period of the company: starting ${start}, it ends on ${expected}.`;
}
