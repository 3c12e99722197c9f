// The calendar's yearly due dates (docs/compliance.md, "Filings and deadlines"): the employer's
// annual PAYE return to each state whose PAYE was withheld in the year (31 January of the next
// year, PITA s.81(2)) and the ITF levy of an employer of 5 or more (1 April of the next year, ITF
// (Amendment) Act 2011 s.6), with the amounts the annual-return and ITF endpoints answer. They are
// not filings (POST /api/remittances/filings records the four monthly kinds), so their status is
// null, and the daily deadline check announces only the monthly schedules.
import type { Executor } from '../../db/client.js';
import { koboToNumber } from '../../tax-engine/money.js';
import { stateByCode } from '../reference-data/index.js';
import { ITF_MIN_EMPLOYEES } from './annual-returns.service.js';
import type { CalendarEntry } from './calendar.types.js';
import { annualReturnDueDate, itfDueDate } from './due-dates.rules.js';
import { remittancesRepo } from './remittances.repo.js';
import { kobo, onePercent } from './remittances.schedules.planner.js';

const NOT_A_FILING = { status: null, days_late: 0, filing: null } as const;

/** The years whose return (31 January after) or levy (1 April after) falls due between `from` and `to`. */
function yearsFor(from: string, to: string): number[] {
  const years: number[] = [];
  for (let year = Number(from.slice(0, 4)) - 1; year < Number(to.slice(0, 4)); year++) years.push(year);
  return years;
}

/** The annual returns and ITF levies due from `from` to `to` (YYYY-MM-DD), each with `month` the year it covers. */
export async function annualCalendarEntries(executor: Executor, companyId: number, from: string, to: string): Promise<CalendarEntry[]> {
  const within = (date: string) => date >= from && date <= to;
  const out: CalendarEntry[] = [];
  for (const year of yearsFor(from, to)) {
    const [start, end] = [`${year}-01-01`, `${year + 1}-01-01`];
    if (within(annualReturnDueDate(year))) {
      const rows = await remittancesRepo.aggregates(executor, companyId, start, end);
      for (const row of rows.filter((r) => r.kind === 'paye' && r.key !== null)) {
        out.push({
          due_date: annualReturnDueDate(year),
          kind: 'annual_return',
          month: String(year),
          authority: row.key,
          authority_name: stateByCode(row.key as string)?.tax_authority ?? null,
          amount: koboToNumber(kobo(row.tax)),
          ...NOT_A_FILING,
        });
      }
    }
    if (within(itfDueDate(year))) {
      const { employees, gross } = await remittancesRepo.payroll(executor, companyId, start, end);
      if (employees >= ITF_MIN_EMPLOYEES)
        out.push({
          due_date: itfDueDate(year),
          kind: 'itf',
          month: String(year),
          authority: null,
          authority_name: 'Industrial Training Fund',
          amount: koboToNumber(onePercent(kobo(gross))),
          ...NOT_A_FILING,
        });
    }
  }
  return out;
}
