// Loans and salary advances (docs/payroll.md, "Loans and salary advances"): create, list, show,
// skip a period, settle early, write off. Each change is one transaction: lock, decide
// (loans.planner.ts), write, record the webhook event and mark the Idempotency-Key. Repayments on
// paystubs are repayments.service.ts.
import type { Db, Tx } from '../../db/client.js';
import { recordAudit } from '../../platform/audit/index.js';
import { conflict, invalid, invalidField, notFound } from '../../platform/errors.js';
import { markIdempotentChange } from '../../platform/idempotency-claims.js';
import { laravelPage, laravelPageJson, pageOffset } from '../../platform/paginator.js';
import { columnToKobo, koboToString } from '../../tax-engine/money.js';
import { recordEvent } from '../webhooks/index.js';
import { createLoanTexts } from './loans.list-text.service.js';
import { isPeriod, planNewLoan } from './loans.planner.js';
import { type LoanFilters, loansRepo } from './loans.repo.js';
import { serializeLoan } from './loans.serializer.js';

export const USER_NOT_FOUND = 'User not found.';
export const LOAN_NOT_FOUND = 'Loan not found.';
export const LOANS_FORBIDDEN = 'Unauthorized or invalid company ID.';
export const LOAN_MESSAGES = {
  created: 'Loan created successfully.',
  listed: 'Loans retrieved successfully.',
  shown: 'Loan retrieved successfully.',
  skipped: 'Period skipped successfully.',
  settled: 'Loan settled successfully.',
  writtenOff: 'Loan written off successfully.',
  notActive: 'Only an active loan can be changed.',
  waiting: 'A repayment of this loan is on a paystub not paid yet: wait until it is paid, or cancel its run first.',
  periodRequired: 'The period field is required.',
  periodFormat: 'The period field must be a month in the format YYYY-MM.',
  periodSkipped: 'The period is already skipped.',
  periodRepaid: 'A paystub of this period already repays the loan: cancel its run first.',
  periodBeforeStart: 'The period may not be before the start period.',
} as const;

export interface LoanListQuery {
  user_id?: number;
  status?: string;
  kind?: string;
  page?: number;
  per_page?: number;
}

export function createLoansService(deps: { db: Db; config: { publicUrl: string } }) {
  const { db, config } = deps;
  const loanTexts = createLoanTexts(db);

  const found = async (companyId: number, id: number) => {
    const row = await loansRepo.find(db, companyId, id);
    if (!row) throw notFound(LOAN_NOT_FOUND);
    return row;
  };

  const page = async (companyId: number, filters: LoanFilters, query: LoanListQuery, rawQuery: Record<string, unknown>, path: string) => {
    const pageNo = query.page ?? 1;
    const perPage = query.per_page ?? 10;
    const { total, rows } = await loansRepo.page(db, companyId, filters, perPage, pageOffset(pageNo, perPage));
    const data = laravelPage({ publicUrl: config.publicUrl, path, rawQuery, page: pageNo, perPage }, total, rows.map(serializeLoan));
    return { message: LOAN_MESSAGES.listed, data };
  };

  /** One state change of an active loan, in a transaction with the row locked. */
  const change = async (companyId: number, id: number, message: string, act: (tx: Tx) => Promise<void>) => {
    await db.transaction(async (tx) => {
      const row = await loansRepo.find(tx, companyId, id, true);
      if (!row) throw notFound(LOAN_NOT_FOUND);
      if (row.status !== 'active') throw conflict(LOAN_MESSAGES.notActive);
      await act(tx);
      await markIdempotentChange(tx, { kind: 'loan', id });
    });
    return { message, loan: serializeLoan(await found(companyId, id)) };
  };

  return {
    async create(companyId: number, userId: number, body: unknown) {
      const row = await db.transaction(async (tx) => {
        const borrower = await loansRepo.borrower(tx, companyId, userId);
        if (!borrower) throw notFound(USER_NOT_FOUND);
        const plan = planNewLoan(body, {
          wages: columnToKobo(borrower.wages),
          advanceOutstanding: await loansRepo.advanceOutstanding(tx, companyId, userId),
        });
        if (!plan.ok) throw invalid(plan.errors);
        const loan = plan.value;
        const inserted = await loansRepo.insert(tx, {
          companyId,
          userId,
          kind: loan.kind,
          principal: koboToString(loan.principal),
          instalment: koboToString(loan.instalment),
          startPeriod: loan.startPeriod,
          // Percent × 10^4 back to the percentage (numeric(7,4) holds it exactly).
          rate: `${loan.rate / 10_000n}.${(loan.rate % 10_000n).toString().padStart(4, '0')}`,
        });
        await recordEvent(tx, companyId, 'loan.created', serializeLoan(inserted));
        await markIdempotentChange(tx, { kind: 'loan', id: inserted.id });
        return inserted;
      });
      return { message: LOAN_MESSAGES.created, loan: serializeLoan(row) };
    },

    /**
     * The console's confirm step: the create rules (advances included) applied without writing, so
     * the confirmation shows exactly what create would record, or create's own refusal.
     */
    async check(companyId: number, userId: number, body: unknown) {
      const borrower = await loansRepo.borrower(db, companyId, userId);
      if (!borrower) throw notFound(USER_NOT_FOUND);
      const plan = planNewLoan(body, {
        wages: columnToKobo(borrower.wages),
        advanceOutstanding: await loansRepo.advanceOutstanding(db, companyId, userId),
      });
      if (!plan.ok) throw invalid(plan.errors);
      return plan.value;
    },

    async list(companyId: number, query: LoanListQuery, rawQuery: Record<string, unknown>) {
      return page(companyId, { userId: query.user_id, status: query.status, kind: query.kind }, query, rawQuery, '/api/loans');
    },

    /** `list` as the JSON text GET /api/loans sends, each loan's text kept by its row's version (loans.list-text.service.ts). */
    async listText(companyId: number, query: LoanListQuery, rawQuery: Record<string, unknown>): Promise<string> {
      const pageNo = query.page ?? 1;
      const perPage = query.per_page ?? 10;
      const filters = { userId: query.user_id, status: query.status, kind: query.kind };
      const { total, texts } = await loanTexts(companyId, filters, perPage, pageOffset(pageNo, perPage));
      const request = { publicUrl: config.publicUrl, path: '/api/loans', rawQuery, page: pageNo, perPage };
      return `{"message":${JSON.stringify(LOAN_MESSAGES.listed)},"data":${laravelPageJson(request, total, texts)}}`;
    },

    async listForUser(companyId: number, userId: number, query: LoanListQuery, rawQuery: Record<string, unknown>) {
      if (!(await loansRepo.userExists(db, companyId, userId))) throw notFound(USER_NOT_FOUND);
      return page(companyId, { userId, status: query.status, kind: query.kind }, query, rawQuery, `/api/users/${userId}/loans`);
    },

    async show(companyId: number, id: number) {
      return { message: LOAN_MESSAGES.shown, loan: serializeLoan(await found(companyId, id)) };
    },

    /** One period (YYYY-MM) without a repayment: the loan runs a month longer. */
    async skip(companyId: number, id: number, body: unknown) {
      const period = body && typeof body === 'object' ? (body as Record<string, unknown>).period : undefined;
      if (period === undefined || period === null || period === '') throw invalidField('period', LOAN_MESSAGES.periodRequired);
      if (!isPeriod(period)) throw invalidField('period', LOAN_MESSAGES.periodFormat);
      return change(companyId, id, LOAN_MESSAGES.skipped, async (tx) => {
        const row = await loansRepo.find(tx, companyId, id);
        if (!row) throw notFound(LOAN_NOT_FOUND);
        if (period < row.start_period) throw invalidField('period', LOAN_MESSAGES.periodBeforeStart);
        if (row.skipped_periods.includes(period)) throw invalidField('period', LOAN_MESSAGES.periodSkipped);
        const [repayable] = (await loansRepo.repayable(tx, companyId, [row.user_id])).filter((loan) => loan.id === id);
        if (repayable?.repaid_periods.includes(period)) throw invalidField('period', LOAN_MESSAGES.periodRepaid);
        await loansRepo.addSkipped(tx, companyId, id, period);
        await recordAudit(tx, [
          { companyId, action: 'loan.period_skipped', target: { type: 'loan', id }, changes: { skipped_period: [null, period] } },
        ]);
      });
    },

    /** Early repayment, recorded: the balance it closed with is kept (`closed_balance`); paid_off. */
    async settle(companyId: number, id: number) {
      const answer = await change(companyId, id, LOAN_MESSAGES.settled, async (tx) => {
        if (await loansRepo.repaymentWaiting(tx, companyId, id)) throw conflict(LOAN_MESSAGES.waiting);
        await loansRepo.close(tx, companyId, id, 'paid_off');
        const row = await loansRepo.find(tx, companyId, id);
        if (row) await recordEvent(tx, companyId, 'loan.paid_off', serializeLoan(row));
      });
      return answer;
    },

    async writeOff(companyId: number, id: number) {
      return change(companyId, id, LOAN_MESSAGES.writtenOff, async (tx) => {
        if (await loansRepo.repaymentWaiting(tx, companyId, id)) throw conflict(LOAN_MESSAGES.waiting);
        await loansRepo.close(tx, companyId, id, 'written_off');
        await recordAudit(tx, [
          { companyId, action: 'loan.written_off', target: { type: 'loan', id }, changes: { status: [null, 'written_off'] } },
        ]);
      });
    },

    /** The answer of an action whose Idempotency-Key outlived a crash (docs/decisions.md, "Idempotency-Key after a crash"). */
    async recover(message: string, companyId: number, id: number) {
      const row = await loansRepo.find(db, companyId, id);
      return row ? { message, loan: serializeLoan(row) } : undefined;
    },
  };
}

export type LoansService = ReturnType<typeof createLoansService>;
