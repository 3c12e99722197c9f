// The console overview's payroll history (docs/console.md, "Overview"): the last twelve months of
// paid net pay and tax, every month present (zero when nothing was paid), oldest first.
import type { Db } from '../../db/client.js';
import { lagosDate } from '../../platform/format.js';
import { runHistoryRepo } from './run-history.repo.js';

export interface MonthTotals {
  /** `YYYY-MM` */
  month: string;
  runs: number;
  /** Naira with two decimals, exact (`"1250000.00"`). */
  net_pay: string;
  tax_withheld: string;
}

/** The `count` months ending with the month of `today` (`YYYY-MM-DD`), oldest first. */
export function lastMonths(today: string, count: number): string[] {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7)) - 1;
  const out: string[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const index = year * 12 + month - i;
    out.push(`${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`);
  }
  return out;
}

/** Last day of a `YYYY-MM` month. */
function monthEnd(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

export function createRunHistoryService(deps: { db: Db; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return {
    /** Twelve months (by default) up to this Lagos month, from one query. */
    async monthlyTotals(companyId: number, count = 12): Promise<MonthTotals[]> {
      const months = lastMonths(lagosDate(now()), count);
      const rows = await runHistoryRepo.monthlyTotals(deps.db, companyId, `${months[0]}-01`, monthEnd(months[months.length - 1]));
      const byMonth = new Map(rows.map((row) => [row.month, row]));
      return months.map((month) => {
        const row = byMonth.get(month);
        return { month, runs: row?.runs ?? 0, net_pay: row?.net_pay ?? '0.00', tax_withheld: row?.tax_withheld ?? '0.00' };
      });
    },
  };
}
