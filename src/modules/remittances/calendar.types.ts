// One entry of GET /api/remittances/calendar (docs/compliance.md, "Filings and deadlines"): a
// monthly schedule's due date with its filing status, or a yearly one (annual return, ITF levy).
import type { FilingStatus, scheduleStatus } from './filings.rules.js';

export interface CalendarEntry {
  due_date: string;
  kind: 'paye' | 'pension' | 'nhf' | 'nsitf' | 'annual_return' | 'itf';
  /** YYYY-MM of the payments remitted; YYYY for an annual return or ITF levy (the year it covers). */
  month: string;
  authority: string | null;
  authority_name: string | null;
  amount: number;
  status: FilingStatus | null;
  days_late: number;
  filing: ReturnType<typeof scheduleStatus>['filing'];
}
