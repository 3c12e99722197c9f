// Loan repayments on paystubs (docs/payroll.md, "Loans and salary advances"). Two steps other
// modules run inside their own transactions:
// - a regular run from salaries, once its paystubs are planned, adds each user's repayments as
//   deduction items naming their loan, capped by the planned net pay (loans.planner.ts); the users
//   given repayments are then planned again with them (paystubs' planAndWriteRun, AddPlannedItems);
// - transfer settlement lowers the balances when the paystubs are paid and restores them when a
//   paid transfer is reversed; a loan reaching 0 is paid_off (webhook `loan.paid_off`).
// The balance never moves when a paystub is only computed: the spec's rule.
import type { Tx } from '../../db/client.js';
import { columnToKobo, toRate } from '../../tax-engine/money.js';
import { builtInPayItemType, type PayItemType } from '../../tax-engine/pay-items.js';
import { type AddPlannedItems, DEFAULT_DEDUCTION_RATIO, type PlanPayItem, parseDeductionRatio } from '../paystubs/index.js';
import { recordEvents } from '../webhooks/index.js';
import { MAX_DEDUCTION_RATIO, planRepayments, type RepayableLoan } from './loans.planner.js';
import { loansRepo, type RepayableRow } from './loans.repo.js';
import { serializeLoan } from './loans.serializer.js';

const loanType = builtInPayItemType('loan_repayment') as PayItemType;
const advanceType = builtInPayItemType('advance_recovery') as PayItemType;

function repayable(row: RepayableRow, period: string): RepayableLoan {
  return {
    id: row.id,
    kind: row.kind,
    outstanding: columnToKobo(row.balance) - columnToKobo(row.pending),
    instalment: columnToKobo(row.instalment),
    rate: toRate(row.interest_rate_annual) ?? 0n,
    startPeriod: row.start_period,
    skippedPeriods: row.skipped_periods,
    repaidInPeriod: row.repaid_periods.includes(period),
  };
}

/**
 * The AddPlannedItems of a company's regular run: for each planned regular paystub, its user's
 * repayments of the paystub's month (YYYY-MM of its period end), by the planned item's index.
 */
export function loanRepayments(companyId: number): AddPlannedItems {
  return async (tx, planned) => {
    const regular = planned.filter((p) => !p.item.offCycle);
    const rows = await loansRepo.repayable(tx, companyId, [...new Set(regular.map((p) => p.item.userId))]);
    const added = new Map<number, PlanPayItem[]>();
    if (rows.length === 0) return added;
    // S3 validated it; a row that somehow is not a ratio falls back to the default rather than failing the run.
    const ratio = parseDeductionRatio((await loansRepo.deductionRatio(tx, companyId)) ?? DEFAULT_DEDUCTION_RATIO) ?? MAX_DEDUCTION_RATIO;
    const byUser = new Map<number, RepayableRow[]>();
    for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
    for (const p of regular) {
      const period = p.item.end.slice(0, 7);
      const loans = (byUser.get(p.item.userId) ?? []).map((row) => repayable(row, period));
      const repayments = planRepayments(loans, period, p.figures.netPay, ratio);
      if (repayments.length === 0) continue;
      added.set(
        p.item.index,
        repayments.map((r) => ({
          type: r.code === 'advance_recovery' ? advanceType : loanType,
          amount: r.amount,
          description: `Loan #${r.loanId}`,
          originPeriod: null,
          loan: { id: r.loanId, interest: r.interest, balanceAfter: r.balanceAfter },
        })),
      );
    }
    return added;
  };
}

/**
 * Settlement's step (payroll-runs' transfers/transfers.settle.service.ts): `paid` paystubs this call moved to paid
 * lower their loans' balances; `reversed` ones (paid → failed) restore them. A paystub that failed
 * before being paid moved no balance, so it restores nothing.
 */
export async function settleLoanRepayments(
  tx: Tx,
  companyId: number,
  paystubs: { paid: readonly number[]; reversed: readonly number[] },
): Promise<void> {
  await loansRepo.restore(tx, companyId, paystubs.reversed);
  const paidOff = await loansRepo.applyPaid(tx, companyId, paystubs.paid);
  if (paidOff.length > 0)
    await recordEvents(
      tx,
      paidOff.map((row) => ({ companyId, type: 'loan.paid_off' as const, data: serializeLoan(row) })),
    );
}
