// Remittance filings and deadlines (docs/compliance.md, "Filings and deadlines"): record that a
// schedule was paid (POST /api/remittances/filings), every due date of a range with its status
// (GET /api/remittances/calendar, with the yearly dates of calendar.annual.service.ts), and the daily step that announces remittance.due_soon and
// remittance.overdue once each, as webhooks and e-mails to the administrators.
import type { Db, Executor } from '../../db/client.js';
import { recordAudit } from '../../platform/audit/index.js';
import { conflict, notFound } from '../../platform/errors.js';
import { isoTimestamp } from '../../platform/format.js';
import type { Mailer } from '../../platform/mail/outbox.js';
import { koboToNumber, koboToString, toKobo } from '../../tax-engine/money.js';
import { adminEmails, recordEvents } from '../webhooks/index.js';
import { annualCalendarEntries } from './calendar.annual.service.js';
import type { CalendarEntry } from './calendar.types.js';
import { monthRange } from './due-dates.rules.js';
import { type FilingRow, filingsRepo } from './filings.repo.js';
import { dueSoonDay, withStatuses } from './filings.rules.js';
import { type FilingInput, readCalendarRange, readFiling } from './filings.validation.js';
import { remittancesRepo } from './remittances.repo.js';
import { COMPANY_NOT_FOUND, lagosToday, schedules } from './remittances.service.js';

export const FILING_EXISTS = 'A filing is already recorded for this schedule.';
const DAY_MS = 86_400_000;
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
/** Overdue notices look back this far (a first check after deploying does not announce years of history). */
const OVERDUE_LOOKBACK_DAYS = 45;
export const DEADLINE_BATCH = 200;

const serializeFiling = (row: FilingRow) => ({
  id: row.id,
  kind: row.kind,
  month: row.month,
  authority: row.authority === '' ? null : row.authority,
  amount: koboToNumber(toKobo(row.amount) ?? 0n),
  paid_on: row.paid_on,
  receipt_reference: row.receipt_reference,
  created_at: isoTimestamp(row.created_at),
});

/** The months whose schedules can fall due between `from` and `to` (pension and NHF fall due up to ~5 weeks after the month). */
function monthsFor(from: string, to: string): string[] {
  const months: string[] = [];
  let [y, m] = from.split('-').map(Number);
  m -= 2;
  while (m < 1) {
    m += 12;
    y -= 1;
  }
  const last = to.slice(0, 7);
  for (;;) {
    const month = `${y}-${String(m).padStart(2, '0')}`;
    if (month > last) break;
    months.push(month);
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
  return months;
}

/** By due date, then kind, then authority. */
const byDate = (a: CalendarEntry, b: CalendarEntry) =>
  a.due_date.localeCompare(b.due_date) || a.kind.localeCompare(b.kind) || (a.authority ?? '').localeCompare(b.authority ?? '');

export function createFilingsService(deps: { db: Db; mailer: Mailer; now?: () => Date }) {
  const { db, mailer } = deps;
  const now = deps.now ?? (() => new Date());

  /** Every due date of the company from `from` to `to`, with its status; read through `executor`. */
  async function entries(executor: Executor, companyId: number, from: string, to: string, today: string): Promise<CalendarEntry[]> {
    const employer = await remittancesRepo.employer(executor, companyId);
    if (!employer) throw notFound(COMPANY_NOT_FOUND);
    const months = monthsFor(from, to);
    const filings = await filingsRepo.ofMonths(executor, companyId, months);
    const out: CalendarEntry[] = [];
    for (const month of months) {
      const [start, end] = monthRange(month);
      const rows = await remittancesRepo.aggregates(executor, companyId, start, end);
      if (rows.length === 0) continue;
      const s = withStatuses(schedules(employer, month, rows), month, filings, today);
      const common = { month };
      for (const e of s.paye)
        out.push({
          ...common,
          kind: 'paye',
          due_date: e.due_date,
          authority: e.state,
          authority_name: e.authority,
          amount: e.amount,
          status: e.status,
          days_late: e.days_late,
          filing: e.filing,
        });
      for (const e of s.pension)
        out.push({
          ...common,
          kind: 'pension',
          due_date: e.due_date,
          authority: e.pfa_code,
          authority_name: e.pfa_name,
          amount: e.total,
          status: e.status,
          days_late: e.days_late,
          filing: e.filing,
        });
      if (s.nhf.due_date && s.nhf.status !== null)
        out.push({
          ...common,
          kind: 'nhf',
          due_date: s.nhf.due_date,
          authority: null,
          authority_name: 'Federal Mortgage Bank of Nigeria',
          amount: s.nhf.amount,
          status: s.nhf.status,
          days_late: s.nhf.days_late,
          filing: s.nhf.filing,
        });
      if (s.nsitf.status !== null)
        out.push({
          ...common,
          kind: 'nsitf',
          due_date: s.nsitf.due_date,
          authority: null,
          authority_name: 'Nigeria Social Insurance Trust Fund',
          amount: s.nsitf.amount,
          status: s.nsitf.status,
          days_late: s.nsitf.days_late,
          filing: s.nsitf.filing,
        });
    }
    return out.filter((e) => e.due_date >= from && e.due_date <= to).sort(byDate);
  }

  /** due_soon (from 3 working days before, until the due date) and overdue (from the day after) notices owed today. */
  async function checkCompany(companyId: number, today: string): Promise<number> {
    const due = await entries(db, companyId, addDays(today, -OVERDUE_LOOKBACK_DAYS), addDays(today, 10), today);
    const owed = due.flatMap((e): { entry: CalendarEntry; notice: 'due_soon' | 'overdue' }[] => {
      if (e.status === 'overdue') return [{ entry: e, notice: 'overdue' }];
      if (e.status === 'due' && today >= dueSoonDay(e.due_date)) return [{ entry: e, notice: 'due_soon' }];
      return [];
    });
    if (owed.length === 0) return 0;
    return db.transaction(async (tx) => {
      const keyOf = (o: (typeof owed)[number]) => ({
        kind: o.entry.kind,
        month: o.entry.month,
        authority: o.entry.authority ?? '',
        notice: o.notice,
      });
      const fresh = await filingsRepo.claimNotices(tx, companyId, owed.map(keyOf));
      const news = owed.filter((o) => {
        const k = keyOf(o);
        return fresh.has(`${k.kind}|${k.month}|${k.authority}|${k.notice}`);
      });
      if (news.length === 0) return 0;
      await recordEvents(
        tx,
        news.map((o) => ({
          companyId,
          type: o.notice === 'overdue' ? ('remittance.overdue' as const) : ('remittance.due_soon' as const),
          data: {
            kind: o.entry.kind,
            month: o.entry.month,
            authority: o.entry.authority,
            due_date: o.entry.due_date,
            amount: o.entry.amount,
            status: o.entry.status,
          },
        })),
      );
      const admins = await adminEmails(tx, companyId);
      const lines = news.map(
        (o) =>
          `- ${o.entry.kind.toUpperCase()} ${o.entry.month}${o.entry.authority ? ` (${o.entry.authority})` : ''}: ₦${o.entry.amount.toFixed(2)}, due ${o.entry.due_date}${o.notice === 'overdue' ? `, ${o.entry.days_late} day(s) late` : ''}`,
      );
      const overdue = news.some((o) => o.notice === 'overdue');
      await mailer.sendMany(
        tx,
        admins.map((to) => ({
          companyId,
          to,
          subject: overdue ? 'Remittances overdue' : 'Remittances due soon',
          text: [
            overdue
              ? 'These remittances are past their due date and not recorded as filed:'
              : 'These remittances fall due within 3 working days:',
            ...lines,
            '',
            'Record each payment with its receipt reference once made (POST /api/remittances/filings or Console → Compliance).',
          ].join('\n'),
        })),
      );
      return news.length;
    });
  }

  return {
    async file(companyId: number, input: FilingInput) {
      const { kind, month, authority, amount, paidOn, reference } = readFiling(input, () => lagosToday(now()));
      const row = await db.transaction(async (tx) => {
        const inserted = await filingsRepo.insert(tx, companyId, {
          kind,
          month,
          authority,
          amount: koboToString(amount),
          paidOn,
          receiptReference: reference,
        });
        if (!inserted) throw conflict(FILING_EXISTS);
        await recordAudit(tx, [
          {
            companyId,
            action: 'remittance_filing.recorded',
            target: { type: 'remittance_filing', id: inserted.id },
            changes: {
              kind: [null, kind],
              month: [null, month],
              authority: [null, authority],
              amount: [null, koboToString(amount)],
              paid_on: [null, paidOn],
              receipt_reference: [null, reference],
            },
          },
        ]);
        return inserted;
      });
      return { message: 'Filing recorded successfully.', filing: serializeFiling(row) };
    },

    async calendar(companyId: number, query: { from?: unknown; to?: unknown }) {
      const { from, to } = readCalendarRange(query);
      const monthly = await entries(db, companyId, from, to, lagosToday(now()));
      const data = [...monthly, ...(await annualCalendarEntries(db, companyId, from, to))].sort(byDate);
      return { message: 'Remittance calendar retrieved successfully', from, to, data };
    },

    /** One step of the daily job: up to DEADLINE_BATCH companies not checked today; how many were claimed and notices sent. */
    async checkDeadlines(): Promise<{ companies: number; notices: number; errors: unknown[] }> {
      const today = lagosToday(now());
      const claimed = await filingsRepo.claimCompaniesToCheck(db, today, DEADLINE_BATCH);
      const step = { companies: claimed.length, notices: 0, errors: [] as unknown[] };
      for (const { company_id } of claimed) {
        try {
          step.notices += await checkCompany(company_id, today);
        } catch (error) {
          step.errors.push(error);
        }
      }
      return step;
    },
  };
}

export type FilingsService = ReturnType<typeof createFilingsService>;
